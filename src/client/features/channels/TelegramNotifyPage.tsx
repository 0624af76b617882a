import { Trans, useLingui } from '@lingui/react/macro';
import { Send } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { trpc } from '../../trpc';
import { Button, buttonClass, Card, EmptyState, FormError, LoadingSkeleton, PageTitle, RefusalState } from '../../ui';
import { useServerText } from '../settings/serverText';

/**
 * /i/notify/telegram/{domain}: an attendant links their Telegram to the company's bot (a deep link
 * whose start parameter names them), then gets their notifications there. Standalone: no app shell.
 */
export function TelegramNotifyPage() {
  const { t } = useLingui();
  const { id: domain = '' } = useParams();
  const serverText = useServerText();
  // While waiting for the bot's /start, look again now and then: linking happens in Telegram.
  const info = trpc.channels.telegramNotify.useQuery({ domain }, { retry: false, refetchInterval: (q) => (q.state.data && !q.state.data.linkedAt ? 3000 : false) });
  const utils = trpc.useUtils();
  const unlink = trpc.channels.unlinkTelegramNotify.useMutation({ onSuccess: (data) => utils.channels.telegramNotify.setData({ domain }, data) });

  let body;
  if (info.isPending) body = <LoadingSkeleton variant="text" rows={3} />;
  else if (info.isError) body = <RefusalState title={t`Telegram notifications are not available`} message={serverText(info.error.message)} />;
  else if (!info.data.available || !info.data.link) body = <EmptyState icon={Send} title={t`This company has no Telegram bot yet. An administrator can connect one in Settings → Telegram.`} />;
  else if (info.data.linkedAt)
    body = (
      <Card title={t`Linked`}>
        <p>
          <Trans>Your notifications from this company also arrive in Telegram, from @{info.data.botUsername}.</Trans>
        </p>
        {unlink.error && <FormError message={serverText(unlink.error.message)} />}
        <Button variant="danger" isPending={unlink.isPending} onPress={() => unlink.mutate({ domain })}>
          <Trans>Stop Telegram notifications</Trans>
        </Button>
      </Card>
    );
  else
    body = (
      <Card title={t`Link your Telegram`}>
        <p>
          <Trans>Open the bot and press Start. This page updates when the link is made.</Trans>
        </p>
        <a className={buttonClass('primary')} href={info.data.link} target="_blank" rel="noopener noreferrer">
          <Send aria-hidden="true" />
          <Trans>Open @{info.data.botUsername} in Telegram</Trans>
        </a>
      </Card>
    );
  return (
    <section className="page channels-notify">
      <PageTitle title={t`Telegram notifications`} />
      {body}
    </section>
  );
}
