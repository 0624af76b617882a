import { Trans, useLingui } from '@lingui/react/macro';
import { MessageCircle } from 'lucide-react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { trpc } from '../../trpc';
import { buttonClass, Card, EmptyState, LoadingSkeleton, PageTitle, RefusalState } from '../../ui';
import { useServerText } from '../settings/serverText';

/** /{emp}/whatsapp: the number a company answers on WhatsApp, as a wa.me link and a QR code. */
export function CompanyWhatsAppPage() {
  const { t } = useLingui();
  const { emp = '' } = useParams();
  const serverText = useServerText();
  const entry = trpc.channels.whatsappEntry.useQuery({ domain: emp }, { retry: false });
  const [qr, setQr] = useState<string | null>(null);
  const link = entry.data?.link ?? null;
  useEffect(() => {
    if (!link) return;
    let live = true;
    void QRCode.toDataURL(link, { margin: 1, width: 512 }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [link]);

  let body;
  if (entry.isPending) body = <LoadingSkeleton variant="text" rows={3} />;
  else if (entry.isError) body = <RefusalState title={t`This page is not available`} message={serverText(entry.error.message)} />;
  else if (!entry.data.link) body = <EmptyState icon={MessageCircle} title={t`${entry.data.companyName} does not answer on WhatsApp yet.`} />;
  else
    body = (
      <Card title={entry.data.companyName}>
        <p>
          <Trans>Talk to us on WhatsApp:</Trans> <strong>{entry.data.number}</strong>
        </p>
        {qr && <img className="channels-qr" src={qr} alt={t`QR code that opens a WhatsApp chat with ${entry.data.companyName}`} />}
        <a className={buttonClass('primary')} href={entry.data.link} rel="noopener noreferrer">
          <MessageCircle aria-hidden="true" />
          <Trans>Open WhatsApp</Trans>
        </a>
      </Card>
    );
  return (
    <section className="page channels-entry">
      <PageTitle title="WhatsApp" />
      {body}
    </section>
  );
}
