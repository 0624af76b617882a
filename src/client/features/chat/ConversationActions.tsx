import { useLingui } from '@lingui/react/macro';
import { Headphones, Info, StickyNote, UserPlus, type LucideIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { useNarrow } from '../calls/hooks';
import { useBudgetAction } from '../commerce/BudgetBuilder';
import { useFormsAction } from '../forms/ConversationForms';
import { IconButton, MenuButton, MenuItem } from '../../ui';
import { Icon, type IconName } from './icons';

interface Action {
  key: string;
  label: string;
  /** The chat's own icon on a wide screen, lucide's in the phone's menu. */
  icon: IconName | null;
  menuIcon: LucideIcon;
  /** A panel of the conversation (a route relative to it), or something to open here. */
  to?: string;
  onPress?: () => void;
}

/**
 * The conversation header's actions (service, details, forms, budget, participants, annotations):
 * a row of icon buttons on a wide screen, one "Conversation options" menu on a phone, where a row
 * of them would push the title off screen.
 */
export function ConversationActions({ domain, conversationId, isService, seesComments }: { domain: string; conversationId: string; isService: boolean; seesComments: boolean }) {
  const { t } = useLingui();
  const narrow = useNarrow();
  const navigate = useNavigate();
  const forms = useFormsAction(domain, conversationId);
  const budget = useBudgetAction(domain, conversationId);
  const actions: Action[] = [
    ...(isService ? [{ key: 'service', label: t`Service`, icon: 'service' as const, menuIcon: Headphones, to: 'concluir' }] : []),
    { key: 'details', label: t`Details`, icon: 'info', menuIcon: Info, to: 'details' },
    ...(forms.available ? [{ key: 'forms', label: forms.label, icon: null, menuIcon: forms.icon, onPress: forms.open }] : []),
    ...(budget.available ? [{ key: 'budget', label: budget.label, icon: null, menuIcon: budget.icon, onPress: budget.open }] : []),
    { key: 'participants', label: t`Add participants`, icon: 'plus', menuIcon: UserPlus, to: 'addParticipants' },
    ...(seesComments ? [{ key: 'annotations', label: t`Annotations`, icon: 'note' as const, menuIcon: StickyNote, to: 'anotacoes' }] : []),
  ];
  const dialogs = (
    <>
      {forms.dialog}
      {budget.dialog}
    </>
  );

  if (narrow) {
    return (
      <>
        <MenuButton label={t`Conversation options`} className="conversation-menu">
          {actions.map((a) => (
            <MenuItem key={a.key} id={a.key} icon={a.menuIcon} onAction={() => (a.to ? void navigate(a.to) : a.onPress?.())}>
              {a.label}
            </MenuItem>
          ))}
        </MenuButton>
        {dialogs}
      </>
    );
  }
  return (
    <nav className="conversation-actions" aria-label={t`Conversation options`}>
      {actions.map((a) =>
        a.to ? (
          <Link key={a.key} className="icon-button" to={a.to} aria-label={a.label} title={a.label}>
            {a.icon && <Icon name={a.icon} />}
          </Link>
        ) : (
          <IconButton key={a.key} label={a.label} icon={a.menuIcon} onPress={a.onPress} />
        ),
      )}
      {dialogs}
    </nav>
  );
}
