import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Card, FormError, SelectField, SubmitButton, TextAreaField, TextField, toast } from '../../ui';

/**
 * In the operator console: a notification to every user of every company, or to every admin
 * (spec Notification.isGlobal). Stored once; it appears in their notifications list and reaches
 * their browsers by Web Push.
 */
export function GlobalNotificationForm() {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const [title, setTitle] = useState('');
  const [subtitle, setSubtitle] = useState('');
  const [action, setAction] = useState('');
  const [audience, setAudience] = useState<'all' | 'admins'>('all');
  const send = trpc.notifications.sendGlobal.useMutation({
    onSuccess: ({ recipients }) => {
      toast.ok(t`Sent to ${recipients} people.`);
      setTitle('');
      setSubtitle('');
      setAction('');
    },
  });
  return (
    <Card title={t`Notify everyone`}>
      <form
        className="credits-topup"
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate({ title: title.trim(), subtitle: subtitle.trim() || undefined, action: action.trim(), audience });
        }}
      >
        <SelectField
          label={t`To`}
          value={audience}
          options={[
            { value: 'all', label: t`Every user of every company` },
            { value: 'admins', label: t`Every admin of every company` },
          ]}
          onChange={(e) => setAudience(e.target.value as 'all' | 'admins')}
        />
        <TextField label={t`Title`} value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} required />
        <TextAreaField label={t`Text`} value={subtitle} maxLength={500} onChange={(e) => setSubtitle(e.target.value)} />
        <TextField label={t`Opens (optional)`} hint={t`A path of this app, like /i/recent`} value={action} maxLength={300} onChange={(e) => setAction(e.target.value)} />
        <FormError message={serverMessage(send.error)} />
        <div className="form-actions">
          <SubmitButton pending={send.isPending}>
            <Trans>Send</Trans>
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}
