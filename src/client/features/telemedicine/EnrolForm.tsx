import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { BRAZILIAN_UFS, type Uf } from '../../../shared/domain/telemedicine';
import { useSelectedCompany } from '../../guard/company';
import { trpc } from '../../trpc';
import { Card, CheckboxField, FormError, FormNotice, SelectField, SubmitButton, TextField } from '../../ui';
import { putFile } from '../feeds/upload';
import { useTeleText } from './texts';

/** A user enrols as a doctor: CRM, state, prefix, speciality and the CRM document (pathCRM). */
export function EnrolForm() {
  const { t } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const { company } = useSelectedCompany();
  const [domain, setDomain] = useState(company?.domain ?? '');
  const [crm, setCrm] = useState('');
  const [uf, setUf] = useState<Uf>('SP');
  const [prefix, setPrefix] = useState('Dr.');
  const [speciality, setSpeciality] = useState('');
  const [global, setGlobal] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const enrol = trpc.telemedicine.enrol.useMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!file) return setError(t`Attach your CRM document`);
    setPending(true);
    try {
      const created = await enrol.mutateAsync({ domain: domain.trim().toLowerCase(), crm: crm.trim(), uf, prefix, speciality, global });
      await putFile(`/uploads/doctor/${encodeURIComponent(created.id)}?name=${encodeURIComponent(file.name)}`, file);
      setSent(true);
      await utils.telemedicine.mine.invalidate();
    } catch (err) {
      setError(text((err as Error).message));
      await utils.telemedicine.mine.invalidate();
    } finally {
      setPending(false);
    }
  }
  return (
    <Card title={t`Enrol as a doctor`}>
      {sent && <FormNotice>{t`Enrolment sent. The company's administrators were notified and will review it.`}</FormNotice>}
      <form className="tele-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={t`Company (domain)`} value={domain} onChange={(e) => setDomain(e.target.value)} required autoComplete="off" hint={t`The company whose administrators approve you.`} />
        <div className="tele-form-row">
          <TextField label={t`CRM number`} value={crm} onChange={(e) => setCrm(e.target.value.replace(/\D/g, ''))} inputMode="numeric" required />
          <SelectField label={t`State (UF)`} value={uf} onChange={(e) => setUf(e.target.value as Uf)} options={BRAZILIAN_UFS.map((u) => ({ value: u, label: u }))} />
        </div>
        <div className="tele-form-row">
          <SelectField
            label={t`Prefix`}
            value={prefix}
            onChange={(e) => setPrefix(e.target.value)}
            options={[
              { value: 'Dr.', label: 'Dr.' },
              { value: 'Dra.', label: 'Dra.' },
              { value: '', label: t`None` },
            ]}
          />
          <TextField label={t`Speciality`} value={speciality} onChange={(e) => setSpeciality(e.target.value)} required maxLength={100} />
        </div>
        <label className="tele-file">
          <span>
            <Trans>CRM document (PDF or image)</Trans>
          </span>
          <input type="file" accept="application/pdf,image/*" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <CheckboxField label={t`I am a global doctor: I serve every telemedicine company that accepts global doctors`} checked={global} onChange={setGlobal} />
        <FormError message={error} />
        <div className="form-actions">
          <SubmitButton pending={pending}>
            <Trans>Send enrolment</Trans>
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}
