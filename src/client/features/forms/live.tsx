import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { TEMPLATE_LOSS_MESSAGES, type TemplateLoss } from '../../../shared/domain/forms-access';
import { trpc } from '../../trpc';
import { Dialog } from '../../ui/Dialog';
import { useSocketEvent } from '../service/live';

/**
 * Form listings follow the company live: a template added, changed or removed by a colleague
 * (forms:changed) refetches every forms query of that company.
 */
export function useLiveTemplates(domain: string) {
  const utils = trpc.useUtils();
  const refetch = () => {
    void utils.forms.templates.invalidate({ domain });
    void utils.forms.usable.invalidate({ domain });
    void utils.forms.template.invalidate();
  };
  useSocketEvent('forms:changed', (p) => p.domain === domain && refetch(), refetch);
}

/**
 * The spec's dialog when the template open on this screen is taken away: made private by its
 * creator ('O formulário que você estava acessando foi privado pelo criador!') or deleted ('O
 * formulário que você estava foi excluído!'); OK leads to /i/recent. `lost` also comes from a
 * refusal the server gave when the screen asked for the template.
 */
export function useTemplateLoss(templateId: string | null | undefined) {
  const [lost, setLost] = useState<TemplateLoss | null>(null);
  useSocketEvent('forms:lost', (p) => {
    if (templateId && p.templateId === templateId) setLost(p.reason);
  });
  return { lost, setLost };
}

export function TemplateLostDialog({ reason }: { reason: TemplateLoss }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const title = reason === 'private' ? t`The form you were accessing was made private by its creator!` : t`The form you were on was deleted!`;
  return <Dialog title={title} onClose={() => void navigate('/i/recent', { replace: true })} />;
}

/** The refusal texts that mean "this template is gone for you" (server: FORM_MESSAGES.madePrivate / deleted). */
export function lossOf(message: string | undefined): TemplateLoss | null {
  if (message === TEMPLATE_LOSS_MESSAGES.private) return 'private';
  if (message === TEMPLATE_LOSS_MESSAGES.deleted) return 'deleted';
  return null;
}
