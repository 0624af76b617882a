import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { MessageSquareText, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { AppRouter } from '../../../server/router';
import { MESSAGE_MAX_LENGTH } from '../../../shared/constants';
import { trpc } from '../../trpc';
import { Button, ConfirmDialog, DataTable, EmptyState, FormError, FormNotice, IconButton, LoadingSkeleton, ModalDialog, RefusalState, TextAreaField, TextField } from '../../ui';
import { AdminScreen } from '../settings/AdminScreen';
import { useServerText } from '../settings/serverText';

type Reply = inferRouterOutputs<AppRouter>['replies']['list'][number];

// The placeholders as typed in a reply (values of the sentence, not words to translate).
const customerTag = '{customer}';
const meTag = '{me}';
const companyTag = '{company}';

/**
 * /i/settings/replies: the company's saved replies (canned responses). Attendants insert one by
 * typing "/" and its shortcut in a conversation; {customer}, {me} and {company} are filled in.
 */
export function SavedRepliesPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Saved replies`}>{(company) => <RepliesList domain={company.domain} />}</AdminScreen>;
}

function RepliesList({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const list = trpc.replies.list.useQuery({ domain });
  const remove = trpc.replies.remove.useMutation({ onSuccess: () => utils.replies.list.invalidate({ domain }) });
  const [editing, setEditing] = useState<Reply | 'new' | null>(null);
  const [removing, setRemoving] = useState<Reply | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (list.isPending) return <LoadingSkeleton variant="text" rows={4} />;
  if (list.error) return <RefusalState title={t`The saved replies could not be loaded`} message={serverText(list.error.message)} />;
  const rows = list.data;
  return (
    <section className="settings-section">
      <p className="muted">
        <Trans>
          In a conversation, type / and the shortcut to insert a reply. Write {customerTag} for the customer's first name, {meTag} for yours and {companyTag} for the
          company's name.
        </Trans>
      </p>
      {notice && <FormNotice>{notice}</FormNotice>}
      <div className="form-actions">
        <Button icon={Plus} onPress={() => setEditing('new')}>
          <Trans>New saved reply</Trans>
        </Button>
      </div>
      {rows.length === 0 ? (
        <EmptyState icon={MessageSquareText} title={t`No saved replies yet`} description={t`Save the answers your team writes every day, and insert them with a keystroke.`} />
      ) : (
        <DataTable<Reply>
          label={t`Saved replies`}
          rows={rows}
          rowKey={(r) => r.id}
          initialSort={{ column: 'shortcut', direction: 'ascending' }}
          columns={[
            { id: 'shortcut', header: t`Shortcut`, rowHeader: true, cell: (r) => <code>/{r.shortcut}</code>, sortValue: (r) => r.shortcut },
            { id: 'title', header: t`Title`, cell: (r) => r.title, sortValue: (r) => r.title },
            { id: 'text', header: t`Text`, cell: (r) => <span className="reply-text">{r.text}</span> },
            {
              id: 'actions',
              header: t`Actions`,
              hideHeader: true,
              cell: (r) => (
                <span className="row-actions">
                  <IconButton icon={Pencil} label={t`Edit /${r.shortcut}`} onPress={() => setEditing(r)} />
                  <IconButton icon={Trash2} danger label={t`Remove /${r.shortcut}`} onPress={() => setRemoving(r)} />
                </span>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <ReplyDialog
          domain={domain}
          reply={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) setNotice(t`Saved reply /${saved} saved.`);
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={t`Remove the saved reply /${removing.shortcut}?`}
          confirmLabel={t`Remove`}
          danger
          pending={remove.isPending}
          error={remove.error ? serverText(remove.error.message) : null}
          onCancel={() => {
            remove.reset();
            setRemoving(null);
          }}
          onConfirm={() =>
            remove.mutate(
              { domain, replyId: removing.id },
              {
                onSuccess: () => {
                  setNotice(t`Saved reply /${removing.shortcut} removed.`);
                  setRemoving(null);
                },
              },
            )
          }
        />
      )}
    </section>
  );
}

function ReplyDialog({ domain, reply, onDone }: { domain: string; reply: Reply | null; onDone: (savedShortcut?: string) => void }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? '');
  const [title, setTitle] = useState(reply?.title ?? '');
  const [text, setText] = useState(reply?.text ?? '');
  const save = trpc.replies.save.useMutation({
    onSuccess: async (saved) => {
      await utils.replies.list.invalidate({ domain });
      onDone(saved.shortcut);
    },
  });
  return (
    <ModalDialog
      title={reply ? t`Edit saved reply` : t`New saved reply`}
      className="modal-wide"
      onCancel={() => onDone()}
      onSubmit={() => save.mutate({ domain, replyId: reply?.id, shortcut, title, text })}
      actions={
        <>
          <Button variant="secondary" isDisabled={save.isPending} onPress={() => onDone()}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" isPending={save.isPending}>
            <Trans>Save</Trans>
          </Button>
        </>
      }
    >
      <FormError message={save.error ? serverText(save.error.message) : null} />
      <TextField
        label={t`Shortcut`}
        hint={t`Typed after / in the composer: letters, digits, - and _`}
        value={shortcut}
        required
        maxLength={31}
        autoFocus
        onChange={(e) => setShortcut(e.target.value)}
      />
      <TextField label={t`Title`} value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} />
      <TextAreaField label={t`Text`} value={text} required rows={5} maxLength={MESSAGE_MAX_LENGTH} onChange={(e) => setText(e.target.value)} />
    </ModalDialog>
  );
}
