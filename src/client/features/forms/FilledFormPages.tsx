import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useParams } from 'react-router-dom';
import { formatProtocol } from '../../../shared/domain/protocol';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { LoadingSkeleton } from '../../ui';
import { useSocketEvent } from '../service/live';
import { pdfUrl } from './download';
import { FillForm, FormAnswers, SubmittedNotice, type FormView, type Side } from './FillForm';
import { lossOf, TemplateLostDialog, useTemplateLoss } from './live';

/** Refetch a filled form when someone else changed it (a draft saved on the other side, a submission). */
function useLiveForm(formId: string, refetch: () => void) {
  useSocketEvent('forms:form', (p) => p.formId === formId && refetch(), refetch);
}

function StatusLine({ form }: { form: FormView }) {
  const { t } = useLingui();
  const status = form.status === 'submitted' ? t`Submitted` : form.filler === 'customer' ? t`Waiting for the customer` : t`Draft`;
  return (
    <p className="muted">
      {form.companyName}
      {form.protocol && (
        <>
          {' · '}
          <Trans>Protocol {formatProtocol(form.protocol)}</Trans>
        </>
      )}
      {' · '}
      <Trans>Version {form.version}</Trans> · <span className="badge">{status}</span>
      {form.outdated && (
        <>
          {' '}
          <span className="badge badge-warn">{t`The form changed since; this one stays as it was filled`}</span>
        </>
      )}
    </p>
  );
}

/** The body of a filled form on any side: fill it when one may, read it otherwise. */
function FilledForm({ form, who, refetch }: { form: FormView; who: Side; refetch: () => void }) {
  return (
    <div className="form-sheet">
      <SubmittedNotice form={form} />
      {form.canFill ? <FillForm key={form.id} form={form} who={who} onSubmitted={refetch} /> : <FormAnswers form={form} who={who} />}
    </div>
  );
}

/** /i/recent/chat/{atId}/form/{empId}/{formId}: a form of a conversation, on the attendant's side. */
export function ConversationFormPage() {
  const { t, i18n } = useLingui();
  const { atId = '', empId = '', formId = '' } = useParams();
  const serverMessage = useServerMessage();
  const query = trpc.forms.form.useQuery({ domain: empId, formId }, { retry: false });
  const loss = useTemplateLoss(query.data?.status === 'submitted' ? null : query.data?.templateId);
  useLiveForm(formId, () => void query.refetch());
  const lost = loss.lost ?? lossOf(query.error?.message);
  if (lost) return <TemplateLostDialog reason={lost} />;
  if (query.isPending) return <LoadingSkeleton variant="form" />;
  const back = (
    <Link to={`/i/recent/chat/${atId}`}>
      <Trans>Back to the conversation</Trans>
    </Link>
  );
  if (query.error) {
    return (
      <section className="page">
        <PageTitle title={t`Form`} />
        <FormError message={serverMessage(query.error)} />
        {back}
      </section>
    );
  }
  const form = query.data;
  return (
    <section className="page form-page">
      {back}
      <PageTitle title={form.name} />
      <StatusLine form={form} />
      <nav className="form-actions" aria-label={t`Form options`}>
        <Link className="button button-secondary" to="print">
          <Trans>Printable version</Trans>
        </Link>
        <a className="button button-secondary" href={pdfUrl(form.id, i18n.locale)} download>
          <Trans>Download PDF</Trans>
        </a>
      </nav>
      <FilledForm form={form} who={{ side: 'member', domain: empId }} refetch={() => void query.refetch()} />
    </section>
  );
}

/** /i/form/{id}: a form sent to the customer side, filled by the customer (anonymous visitors too). */
export function CustomerFormPage() {
  const { t, i18n } = useLingui();
  const { id = '' } = useParams();
  const serverMessage = useServerMessage();
  const query = trpc.formsCustomer.form.useQuery({ formId: id }, { retry: false });
  const loss = useTemplateLoss(query.data?.status === 'submitted' ? null : query.data?.templateId);
  useLiveForm(id, () => void query.refetch());
  const lost = loss.lost ?? lossOf(query.error?.message);
  if (lost) return <TemplateLostDialog reason={lost} />;
  if (query.isPending) return <LoadingSkeleton variant="form" />;
  if (query.error) {
    return (
      <section className="page">
        <PageTitle title={t`Form`} />
        <FormError message={serverMessage(query.error)} />
      </section>
    );
  }
  const form = query.data;
  return (
    <section className="page form-page">
      <Link to={`/${form.domain}/chat/${form.conversationId}`}>
        <Trans>Back to the conversation</Trans>
      </Link>
      <PageTitle title={form.name} />
      <StatusLine form={form} />
      {form.status === 'submitted' && (
        <a className="button button-secondary" href={pdfUrl(form.id, i18n.locale)} download>
          <Trans>Download PDF</Trans>
        </a>
      )}
      <FilledForm form={form} who={{ side: 'customer' }} refetch={() => void query.refetch()} />
    </section>
  );
}

/** .../form/{empId}/{formId}/print: the form as a clean page for the printer (print CSS), and its PDF. */
export function ConversationFormPrintPage() {
  const { t, i18n } = useLingui();
  const { atId = '', empId = '', formId = '' } = useParams();
  const serverMessage = useServerMessage();
  const query = trpc.forms.form.useQuery({ domain: empId, formId }, { retry: false });
  if (query.isPending) return <LoadingSkeleton variant="form" />;
  if (query.error) return <FormError message={serverMessage(query.error)} />;
  const form = query.data;
  const when = form.submittedAt ? i18n.date(new Date(form.submittedAt), { dateStyle: 'short', timeStyle: 'short' }) : null;
  return (
    <section className="page form-print-page">
      <nav className="form-actions no-print" aria-label={t`Print options`}>
        <Link to={`/i/recent/chat/${atId}/form/${empId}/${formId}`}>
          <Trans>Back to the form</Trans>
        </Link>
        <button type="button" className="button" onClick={() => window.print()}>
          <Trans>Print</Trans>
        </button>
        <a className="button button-secondary" href={pdfUrl(form.id, i18n.locale)} download>
          <Trans>Download PDF</Trans>
        </a>
      </nav>
      <article className="form-print">
        <header>
          <p className="form-print-company">{form.companyName}</p>
          <PageTitle title={form.name} />
          <p className="form-print-meta">
            {form.protocol && (
              <>
                <Trans>Protocol {formatProtocol(form.protocol)}</Trans> ·{' '}
              </>
            )}
            <Trans>Version {form.version}</Trans>
            {form.submittedByName && (
              <>
                {' · '}
                <Trans>
                  Filled in by {form.submittedByName} on {when}
                </Trans>
              </>
            )}
            {form.status !== 'submitted' && (
              <>
                {' · '}
                <Trans>Not submitted yet</Trans>
              </>
            )}
          </p>
        </header>
        <FormAnswers form={form} who={{ side: 'member', domain: empId }} />
      </article>
    </section>
  );
}
