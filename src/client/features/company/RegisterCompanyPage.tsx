import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState, type FormEvent, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { REGISTRATION_STEPS, type RegistrationStep } from '../../../shared/realtime';
import { domainSchema, registerCompanyInput } from '../../../shared/schemas/company';
import { useAccount, useLoginHere } from '../../guard/company';
import { translateServerMessage } from '../../guard/serverMessages';
import { DEFAULT_REDIRECT } from '../../guard/session';
import { connectSocket, getSocket, type AppSocket } from '../../socket';
import { isLocale } from '../../i18n';
import { trpc } from '../../trpc';
import { FormError, SubmitButton } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { IMAGE_TYPES, putWithProgress } from '../../ui/ImageUpload';
import { AVATAR_MAX_BYTES } from '../../../shared/domain/images';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { useFormErrors } from '../login/formErrors';
import { JoinByDomainForm } from './JoinByDomainForm';

const FIELDS = ['domain', 'name', 'bio'] as const;

/** Spec 4, "Company registration steps", in the order the server announces them. */
const STEP_LABELS: Record<RegistrationStep, MessageDescriptor> = {
  creatingCompany: msg`Creating company`,
  registeringInDatabase: msg`Registering in database`,
  registeringQueues: msg`Registering queues`,
  creatingProfiles: msg`Creating profiles`,
  buildingContactUs: msg`Building Contact Us`,
  allReady: msg`All ready`,
};

/** How long "All ready" stays on screen before the app opens in the new company. */
const READY_PAUSE_MS = 1200;
/** The steps are a bonus: registration does not wait longer than this for the socket. */
const SOCKET_WAIT_MS = 3000;

/**
 * /i/login/newpage, the entry page (spec 2): register a company, or go to one by its domain or an
 * invitation link. Registering needs a real account: anonymous visitors sign in first, guests
 * (whose account ends in 24 hours, taking the company's only admin with it) create one.
 */
export function RegisterCompanyPage() {
  const { t } = useLingui();
  const { status, user } = useAccount();
  const loginHere = useLoginHere();
  if (status === 'loading') return <Spinner />;
  if (status === 'anonymous') return <Navigate to={loginHere} replace />;
  return (
    <section className="page company-entry">
      <PageTitle title={t`Register company`} />
      {user?.guest ? (
        <div className="auth-form">
          <p className="notice-warn">
            <Trans>A guest account cannot register a company. Create an account first.</Trans>
          </p>
          <Link className="button" to={`/i/login/mail/create?redirect=${encodeURIComponent('/i/login/newpage')}`}>
            <Trans>Create account</Trans>
          </Link>
        </div>
      ) : (
        <RegisterCompanyForm />
      )}
      <section className="company-entry-join" aria-labelledby="join-title">
        <h2 id="join-title">
          <Trans>Already invited?</Trans>
        </h2>
        <JoinByDomainForm />
      </section>
    </section>
  );
}

function RegisterCompanyForm() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [values, setValues] = useState({ domain: '', name: '', bio: '' });
  const { errors, validate, showServerError, clear } = useFormErrors(FIELDS);
  const [registering, setRegistering] = useState<string | null>(null);
  const [reached, setReached] = useState(-1);
  const [ready, setReady] = useState(false);
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string>();
  // Where to go once ready: the public-page settings when the image could not be stored, to retry.
  const [next, setNext] = useState(DEFAULT_REDIRECT);

  const register = trpc.company.register.useMutation({
    onSuccess: async (_company, input) => {
      // The image needs the company to exist (its upload is checked against the admin member).
      if (image) await putWithProgress(`/uploads/company/${input.domain}/image`, image, () => {}).catch(() => setNext('/i/settings/configCompany/edit_page'));
      setReached(REGISTRATION_STEPS.length - 1);
      setReady(true);
    },
    onError: (error) => {
      setRegistering(null);
      setReached(-1);
      showServerError(error);
    },
  });

  // The server announces each step on the user's socket while the one request runs.
  useEffect(() => {
    if (!registering) return;
    const socket = getSocket();
    const onStep = ({ domain, step }: { domain: string; step: RegistrationStep }) => {
      if (domain === registering) setReached((before) => Math.max(before, REGISTRATION_STEPS.indexOf(step)));
    };
    socket.on('company:registration', onStep);
    return () => void socket.off('company:registration', onStep);
  }, [registering]);

  // The company is already the selected one (the server made it so): open the app in it.
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => {
      void utils.company.invalidate();
      void navigate(next, { replace: true });
    }, READY_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [ready, navigate, utils, next]);

  const set = (name: keyof typeof values) => (e: { target: { value: string } }) => {
    const value = name === 'domain' ? e.target.value.toLowerCase() : e.target.value;
    setValues((v) => ({ ...v, [name]: value }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = validate(registerCompanyInput, { domain: values.domain, name: values.name, bio: values.bio || undefined, language: isLocale(i18n.locale) ? i18n.locale : undefined });
    if (!input) return;
    setRegistering(input.domain);
    setReached(-1);
    await connected(getSocket());
    register.mutate(input);
  }

  if (registering) return <RegistrationProgress reached={reached} />;
  return (
    <form className="auth-form company-form" onSubmit={submit} noValidate>
      <p className="muted">
        <Trans>Your company gets its own page, a Contact Us queue and the administrator and member profiles. You become its administrator.</Trans>
      </p>
      <FormError message={errors.form} />
      <DomainField value={values.domain} onChange={set('domain')} submitError={errors.fields.domain} onEdit={clear} />
      <TextField label={t`Company name`} autoComplete="organization" maxLength={80} value={values.name} onChange={set('name')} error={errors.fields.name} />
      <TextArea label={t`About the company`} maxLength={1000} rows={3} value={values.bio} onChange={set('bio')} error={errors.fields.bio} />
      <TextField
        label={t`Company image (optional)`}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        error={imageError}
        onChange={(e) => {
          const file = e.target.files?.[0] ?? null;
          const problem = !file ? undefined : !IMAGE_TYPES.includes(file.type) ? t`The file must be an image (PNG, JPEG, GIF or WebP)` : file.size > AVATAR_MAX_BYTES ? t`The image is too large (at most 5 MB)` : undefined;
          setImageError(problem);
          setImage(problem ? null : file);
        }}
      />
      <SubmitButton pending={register.isPending}>
        <Trans>Register company</Trans>
      </SubmitButton>
    </form>
  );
}

/** Resolves once the socket is connected, or after a short wait: the request goes either way. */
function connected(socket: AppSocket): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.off('connect', done);
      resolve();
    };
    const timer = setTimeout(done, SOCKET_WAIT_MS);
    socket.on('connect', done);
    connectSocket();
  });
}

/** How long to wait after the last keystroke before asking the server about the domain. */
const CHECK_DELAY_MS = 350;

/**
 * The domain, checked as it is typed: its shape here with the server's own schema, its
 * availability on the server (company.checkDomain) once typing pauses.
 */
function DomainField(props: { value: string; onChange: (e: { target: { value: string } }) => void; submitError?: string; onEdit: () => void }) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const [checked, setChecked] = useState(props.value);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(props.value), CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [props.value]);
  const shape = domainSchema.safeParse(checked);
  const check = trpc.company.checkDomain.useQuery({ domain: checked }, { enabled: shape.success, retry: false, staleTime: 10_000 });
  const settled = checked === props.value;

  let error = props.submitError;
  let hint: ReactNode = <Trans>3 to 15 lowercase letters or digits. It is your page's address.</Trans>;
  if (!error && settled && checked !== '') {
    if (!shape.success) error = translateServerMessage(i18n, shape.error.issues[0]?.message ?? '');
    else if (check.error) error = translateServerMessage(i18n, check.error.message);
    else if (check.isFetching) hint = <Trans>Checking…</Trans>;
    else if (check.data?.available) {
      const address = `${window.location.origin}/${checked}`;
      hint = <Trans>Available: your page will be {address}</Trans>;
    }
  }
  return (
    <TextField
      label={t`Domain`}
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={15}
      value={props.value}
      onChange={(e) => {
        props.onEdit();
        props.onChange(e);
      }}
      error={error}
      hint={error ? undefined : hint}
    />
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'aria-invalid' | 'aria-describedby'>;

/** Field's multi-line twin: the label over it, the error under it. */
function TextArea({ label, error, ...textarea }: TextAreaProps & { label: string; error?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...textarea} />
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The six steps: done, the one under way, still to come; the line under them says where it is. */
function RegistrationProgress({ reached }: { reached: number }) {
  const { t, i18n } = useLingui();
  const last = REGISTRATION_STEPS.length - 1;
  const current = Math.max(reached, 0);
  const stateOf = (index: number) => (index < current || reached === last ? 'done' : index === current ? 'current' : 'pending');
  return (
    <div className="registration-progress">
      <ol aria-label={t`Registration progress`}>
        {REGISTRATION_STEPS.map((step, index) => {
          const state = stateOf(index);
          return (
            <li key={step} className={`registration-step registration-step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="registration-step-mark" aria-hidden="true">
                {state === 'done' ? '✓' : state === 'current' ? '…' : ''}
              </span>
              {i18n._(STEP_LABELS[step])}
            </li>
          );
        })}
      </ol>
      <p className="registration-status" role="status">
        {i18n._(STEP_LABELS[REGISTRATION_STEPS[current]!])}
      </p>
    </div>
  );
}
