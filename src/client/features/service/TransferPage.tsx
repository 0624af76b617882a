import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { TextAreaField } from '../../ui/fields';
import { MemberScreen } from './MemberScreen';

/**
 * /i/recent/chat/{id}/transfer: to another queue or to one attendant, with an optional comment
 * for members (added only when not blank). 'O Atendimento foi transferido com sucesso!'
 */
export function TransferPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return <MemberScreen title={t`Transfer`}>{(company) => <TransferForm domain={company.domain} conversationId={id} />}</MemberScreen>;
}

function TransferForm({ domain, conversationId }: { domain: string; conversationId: string }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const targets = trpc.service.transferTargets.useQuery({ domain });
  const [kind, setKind] = useState<'queue' | 'attendant'>('queue');
  const [target, setTarget] = useState('');
  const [comment, setComment] = useState('');
  const transfer = trpc.service.transfer.useMutation({ onSuccess: () => utils.service.details.invalidate({ domain, conversationId }) });

  if (targets.isPending) return <Spinner />;
  if (targets.isError) return <FormError message={serverMessage(targets.error)} />;
  if (transfer.isSuccess) {
    return (
      <>
        <FormNotice>
          <Trans>The service was transferred successfully!</Trans>
        </FormNotice>
        <Link to={`/i/recent/chat/${conversationId}`}>
          <Trans>Back to the conversation</Trans>
        </Link>
      </>
    );
  }
  const options = kind === 'queue' ? targets.data.queues.map((q) => ({ value: q.id, label: q.name })) : targets.data.attendants.filter((a) => !a.me).map((a) => ({ value: a.userId, label: a.name }));
  return (
    <form
      className="settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!target) return;
        transfer.mutate({
          domain,
          conversationId,
          target: kind === 'queue' ? { kind: 'queue', queueId: target } : { kind: 'attendant', userId: target },
          comment,
        });
      }}
    >
      <FormError message={transfer.error ? serverMessage(transfer.error) : null} />
      <fieldset className="checkbox-group">
        <legend>
          <Trans>Transfer to</Trans>
        </legend>
        <label className="checkbox">
          <input type="radio" name="kind" checked={kind === 'queue'} onChange={() => (setKind('queue'), setTarget(''))} />
          <span>
            <Trans>A queue</Trans>
          </span>
        </label>
        <label className="checkbox">
          <input type="radio" name="kind" checked={kind === 'attendant'} onChange={() => (setKind('attendant'), setTarget(''))} />
          <span>
            <Trans>An attendant</Trans>
          </span>
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="transfer-target">{kind === 'queue' ? t`Queue` : t`Attendant`}</label>
        <select id="transfer-target" value={target} required onChange={(e) => setTarget(e.target.value)}>
          <option value="">{t`Choose…`}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <TextAreaField label={t`Comment for the team (optional)`} value={comment} maxLength={1500} rows={3} onChange={(e) => setComment(e.target.value)} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={!target || transfer.isPending} aria-busy={transfer.isPending || undefined}>
          <Trans>Transfer</Trans>
        </button>
        <Link className="button button-secondary" to={`/i/recent/chat/${conversationId}`}>
          <Trans>Cancel</Trans>
        </Link>
      </div>
    </form>
  );
}
