import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Plus } from 'lucide-react';
import { Badge, Button, ButtonLink, ConfirmDialog, EmptyState, FormError, FormNotice, LoadingSkeleton, PageHeader, RefusalState } from '../../ui';
import { useSettingsCompany } from '../settings/useSelectedCompany';
import { downloadCsv } from './download';
import { useLiveTemplates } from './live';

/**
 * /i/settings/forms: the company's form templates, newest first and live (a colleague's add,
 * change or removal shows without reloading), with what the caller may do to each; admins also
 * choose which forms each member may use (formsMembro).
 */
export function FormsSettingsPage() {
  const { t } = useLingui();
  const selected = useSettingsCompany();
  if (selected.status === 'loading') return <LoadingSkeleton variant="table" />;
  if (selected.status !== 'ready') {
    return (
      <section className="page">
        <PageHeader title={t`Forms`} />
        {selected.status === 'error' ? <RefusalState title={t`Forms`} message={selected.message} /> : <EmptyState title={t`Choose a company first.`} />}
      </section>
    );
  }
  return <FormsSettings domain={selected.company.domain} isAdmin={selected.company.isAdmin} />;
}

function FormsSettings({ domain, isAdmin }: { domain: string; isAdmin: boolean }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  useLiveTemplates(domain);
  const list = trpc.forms.templates.useQuery({ domain }, { retry: false });
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const remove = trpc.forms.delete.useMutation({
    onSuccess: () => {
      setNotice(t`Form “${removing?.name ?? ''}” deleted`);
      setRemoving(null);
      void utils.forms.templates.invalidate({ domain });
    },
  });
  const date = (d: Date | string) => i18n.date(new Date(d), { dateStyle: 'short', timeStyle: 'short' });

  return (
    <section className="page forms-settings">
      <PageHeader
        title={t`Forms`}
        description={t`Templates your team fills in inside conversations: intake, service reports, checklists, consent.`}
        actions={
          <ButtonLink variant="primary" icon={Plus} to="/i/forma/new">
            <Trans>New form</Trans>
          </ButtonLink>
        }
      />
      {notice && <FormNotice>{notice}</FormNotice>}
      <FormError message={exportError} />
      {list.isPending ? (
        <LoadingSkeleton variant="table" />
      ) : list.error ? (
        <RefusalState title={t`Forms`} message={serverMessage(list.error)} />
      ) : list.data.length === 0 ? (
        <EmptyState title={t`No forms yet. Create the first one.`} />
      ) : (
        <div className="table-scroll">
          <table className="settings-table forms-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Name</Trans>
                </th>
                <th scope="col">
                  <Trans>Created</Trans>
                </th>
                <th scope="col">
                  <Trans>Changed</Trans>
                </th>
                <th scope="col">
                  <Trans>Creator</Trans>
                </th>
                <th scope="col">
                  <Trans>Editors</Trans>
                </th>
                <th scope="col">
                  <Trans>Submitted</Trans>
                </th>
                <th scope="col">
                  <span className="visually-hidden">
                    <Trans>Actions</Trans>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    <Link to={`/i/forma/${row.id}`}>{row.name}</Link>{' '}
                    {row.isPrivate && (
                      <Badge tone="warn">
                        <Trans>Private</Trans>
                      </Badge>
                    )}
                    <div className="muted">
                      <Trans>Version {row.version}</Trans>
                      {row.rights.edit && (
                        <>
                          {' · '}
                          <Trans>you can edit</Trans>
                        </>
                      )}
                    </div>
                  </th>
                  <td>{date(row.createdAt)}</td>
                  <td>{date(row.updatedAt)}</td>
                  <td>{row.creatorName ?? '—'}</td>
                  <td>{row.editorNames.join(', ') || '—'}</td>
                  <td>{row.submissions}</td>
                  <td className="row-actions">
                    {row.rights.export && (
                      <Button
                        variant="quiet"
                        size="small"
                        aria-label={t`Export ${row.name} as CSV`}
                        onPress={() => {
                          setExportError(null);
                          downloadCsv(utils, domain, row.id, i18n.locale).catch((err: Error) => setExportError(serverMessage(err)));
                        }}
                      >
                        <Trans>CSV</Trans>
                      </Button>
                    )}
                    {row.rights.remove && (
                      <Button
                        variant="danger"
                        size="small"
                        aria-label={t`Delete ${row.name}`}
                        onPress={() => {
                          remove.reset();
                          setNotice(null);
                          setRemoving({ id: row.id, name: row.name });
                        }}
                      >
                        <Trans>Delete</Trans>
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {isAdmin && list.data && list.data.length > 0 && <MemberForms domain={domain} templates={list.data} />}
      {removing && (
        <ConfirmDialog
          title={t`Delete the form “${removing.name}”?`}
          confirmLabel={t`Delete form`}
          danger
          pending={remove.isPending}
          error={remove.error ? serverMessage(remove.error) : null}
          onConfirm={() => remove.mutate({ domain, templateId: removing.id })}
          onCancel={() => setRemoving(null)}
        >
          <p>
            <Trans>Forms already filled stay readable in their conversations.</Trans>
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** formsMembro: each member uses every form, or the ones ticked here. Admins always use all. */
function MemberForms({ domain, templates }: { domain: string; templates: { id: string; name: string }[] }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const members = trpc.forms.memberForms.useQuery({ domain }, { retry: false });
  const set = trpc.forms.setMemberForms.useMutation({ onSuccess: () => void utils.forms.memberForms.invalidate({ domain }) });
  if (members.isPending) return <LoadingSkeleton variant="list" />;
  if (members.error) return <RefusalState title={t`Which forms each member uses`} message={serverMessage(members.error)} />;
  return (
    <section className="settings-section" aria-labelledby="member-forms-title">
      <h2 id="member-forms-title">
        <Trans>Which forms each member uses</Trans>
      </h2>
      <FormError message={set.error ? serverMessage(set.error) : null} />
      <ul className="member-forms">
        {members.data
          .filter((m) => !m.isAdmin)
          .map((m) => (
            <li key={m.userId}>
              <fieldset className="form-choice" disabled={set.isPending}>
                <legend>{m.name}</legend>
                <label className="form-option">
                  <input type="checkbox" checked={m.all} onChange={(e) => set.mutate({ domain, userId: m.userId, all: e.target.checked, templateIds: m.templateIds })} /> <Trans>Every form</Trans>
                </label>
                {!m.all &&
                  templates.map((tpl) => (
                    <label key={tpl.id} className="form-option">
                      <input
                        type="checkbox"
                        aria-label={t`${m.name} uses ${tpl.name}`}
                        checked={m.templateIds.includes(tpl.id)}
                        onChange={(e) =>
                          set.mutate({ domain, userId: m.userId, all: false, templateIds: e.target.checked ? [...m.templateIds, tpl.id] : m.templateIds.filter((id) => id !== tpl.id) })
                        }
                      />{' '}
                      {tpl.name}
                    </label>
                  ))}
              </fieldset>
            </li>
          ))}
      </ul>
    </section>
  );
}
