import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { domainSchema } from '../../../shared/schemas/company';
import { legacyLinkTarget } from '../../guard/legacyLinks';
import { TextField } from '../../ui/fields';

/** The company pages an invitation can lead to: /{emp}/invite, /{emp}/invitation, /{emp}/newc/{id}. */
const INVITATION_PATH = /^\/([a-z0-9]+)\/(invite|invitation|newc\/[^/]+)\/?$/;

/**
 * Where a typed domain or a pasted invitation link leads: a domain asks to join that company; a
 * link (today's or the old /#/convite/ one) opens its own page. null when it is neither.
 */
export function joinTarget(text: string): string | null {
  const value = text.trim();
  if (domainSchema.safeParse(value.toLowerCase()).success) return `/${value.toLowerCase()}/invite`;
  let url: URL;
  try {
    url = new URL(value.includes('/') ? value : `/${value}`, window.location.origin);
  } catch {
    return null;
  }
  const legacy = legacyLinkTarget(url.hash);
  if (legacy) return legacy;
  const match = INVITATION_PATH.exec(url.pathname);
  if (match && domainSchema.safeParse(match[1]).success) return url.pathname;
  return null;
}

/** Entry page and company list: go to a company by its domain or an invitation link (spec 2). */
export function JoinByDomainForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const target = joinTarget(value);
    if (!target) return setError(t`Enter a company domain or an invitation link`);
    void navigate(target);
  }
  return (
    <form className="auth-form join-by-domain" onSubmit={submit} noValidate>
      <TextField
        label={t`Company domain or invitation link`}
        autoCapitalize="none"
        spellCheck={false}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <button type="submit" className="button button-secondary">
        <Trans>Join a company</Trans>
      </button>
    </form>
  );
}
