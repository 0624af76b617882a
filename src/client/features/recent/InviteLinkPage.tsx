import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { MemberScreen } from '../service/MemberScreen';

/**
 * Copies a text. The Clipboard API exists only on secure pages (https or localhost): a server
 * reached over plain http on its LAN address has none, so the older copy command over a hidden
 * field is tried before telling the person to copy it themselves.
 */
async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, page not focused): try the older way below.
    }
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.appendChild(field);
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
  }
}

/** /i/optionsList/inviteLink: the company's invitation link (shortened when a shortener is set up), to copy or scan. */
export function InviteLinkPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Invitation link`}>{(company) => <InviteLink domain={company.domain} />}</MemberScreen>;
}

function InviteLink({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const link = trpc.inviteLink.get.useQuery({ domain }, { staleTime: 5 * 60_000, retry: false });
  const [copied, setCopied] = useState<boolean | null>(null);
  if (link.isPending) return <Spinner />;
  if (link.isError) return <FormError message={serverMessage(link.error)} />;
  const { url, qrDataUrl, companyName } = link.data;
  return (
    <div className="invite-link">
      <p>
        <Trans>Whoever opens this link asks to join {companyName}; an administrator approves the request.</Trans>
      </p>
      <div className="field">
        <label htmlFor="invite-url">
          <Trans>Invitation link</Trans>
        </label>
        <input id="invite-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => void copyText(url).then(setCopied)}
        >
          <Trans>Copy link</Trans>
        </button>
      </div>
      <p role="status" className="muted">
        {copied === true && <Trans>Link copied</Trans>}
        {copied === false && <Trans>Could not copy: select the link and copy it yourself</Trans>}
      </p>
      <img src={qrDataUrl} width={256} height={256} alt={t`QR code of the invitation link`} />
    </div>
  );
}
