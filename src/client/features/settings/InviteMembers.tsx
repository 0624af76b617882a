import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { emailSchema } from '../../../shared/schemas/identity';
import { trpc } from '../../trpc';
import { FormError, FormNotice, SubmitButton } from '../../ui/Form';
import { ListField } from './ListField';
import { useServerText } from './serverText';

type Outcome = { email: string } & ({ kind: 'sent' } | { kind: 'alreadyMember' } | { kind: 'failed'; message: string });

const normalizeEmail = (value: string) => value.trim().toLowerCase();

/**
 * 'Invite by e-mail': e-mails are added one at a time to a list (spec 5, no duplicates), then each
 * gets its invitation; the outcome is told per address.
 */
export function InviteMembers({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const invite = trpc.members.inviteByEmail.useMutation();
  const [emails, setEmails] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);

  const invalidEmail = (value: string) => (emailSchema.safeParse(value).success ? null : t`Invalid email`);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // What is typed but not added yet is meant to be invited too.
    const last = normalizeEmail(typed);
    const lastError = last && !emails.includes(last) ? invalidEmail(last) : null;
    if (lastError) return setError(lastError);
    const list = last && !emails.includes(last) ? [...emails, last] : emails;
    if (list.length === 0) return setError(t`Add at least one e-mail.`);
    setError(null);
    setSending(true);
    const results: Outcome[] = [];
    for (const email of list) {
      try {
        const answer = await invite.mutateAsync({ domain, email });
        results.push(answer.alreadyMember ? { email, kind: 'alreadyMember' } : { email, kind: 'sent' });
      } catch (err) {
        results.push({ email, kind: 'failed', message: serverText((err as Error).message) });
      }
    }
    setSending(false);
    setOutcomes(results);
    // Failed addresses stay, ready to be sent again.
    setEmails(results.filter((r) => r.kind === 'failed').map((r) => r.email));
    setTyped('');
    await utils.members.list.invalidate({ domain });
  }

  return (
    <section className="settings-section" aria-labelledby="invite-title">
      <h2 id="invite-title">
        <Trans>Invite by e-mail</Trans>
      </h2>
      <form className="settings-form" onSubmit={submit} noValidate>
        <p className="muted">
          <Trans>Whoever you invite joins the company directly when they accept, without waiting for approval.</Trans>
        </p>
        <FormError message={error} />
        <ul className="outcomes" aria-live="polite">
          {outcomes.map((o) => (
            <li key={o.email}>
              {o.kind === 'sent' && (
                <FormNotice>
                  <Trans>E-mail sent to {o.email}</Trans>
                </FormNotice>
              )}
              {o.kind === 'alreadyMember' && (
                <FormNotice>
                  <Trans>{o.email} is already a member of this company.</Trans>
                </FormNotice>
              )}
              {o.kind === 'failed' && <FormError message={o.message} />}
            </li>
          ))}
        </ul>
        <ListField
          label={t`E-mails to invite`}
          inputType="email"
          items={emails}
          onChange={setEmails}
          normalize={normalizeEmail}
          validate={invalidEmail}
          duplicateMessage={t`This email already belongs to the list`}
          pending={typed}
          onPendingChange={setTyped}
        />
        <div className="form-actions">
          <SubmitButton pending={sending}>
            <Trans>Send invitations</Trans>
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
