import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { RelayChannel } from '../../../shared/domain/conversations';

const LABELS: Record<RelayChannel, MessageDescriptor> = {
  email: msg`by e-mail`,
  whatsapp: msg`by WhatsApp`,
  telegram: msg`by Telegram`,
};

/**
 * How the customer reached us, when not in the app: the attendant's answer goes out by that
 * channel (a mail, a WhatsApp or Telegram message), so the desk says so beside their name.
 */
export function ChannelBadge({ channel }: { channel: RelayChannel | null | undefined }) {
  const { i18n } = useLingui();
  if (!channel) return null;
  return (
    <span className="badge badge-accent channel-badge" data-channel={channel}>
      {i18n._(LABELS[channel])}
    </span>
  );
}
