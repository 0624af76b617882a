import { Trans, useLingui } from '@lingui/react/macro';
import { createContext, useContext, useEffect, useId, useRef, useState } from 'react';
import { FILE_LINK_SECONDS } from '../../../shared/domain/files';
import { Film, X } from 'lucide-react';
import { trpc } from '../../trpc';
import { FullScreenLayer } from '../../ui/Dialog';
import { IconButton } from '../../ui/Button';
import { useOptionalChat, useTranslateError } from './ChatProvider';
import { duration, fileSize } from './format';
import { Icon } from './icons';
import type { ChatMessage } from './sync';

type Variant = 'file' | 'thumb';

/** The part of a message its file needs (a member's chat message or a customer's event). */
type FileMessage = Pick<ChatMessage, 'id' | 'conversationId' | 'type' | 'file'>;

/**
 * Whose links: a member's (chat.fileLinks, in the selected company) or a customer's in their own
 * request (customer.fileLinks), so the visitor's messenger shows files as the member chat does.
 */
export const FileLinkSource = createContext<'member' | 'customer'>('member');

/** A short-lived link to a message's file (the server checks I take part), renewed before it expires. */
function useFileLink(message: FileMessage, variant: Variant, enabled = true) {
  const source = useContext(FileLinkSource);
  const domain = useOptionalChat()?.domain ?? '';
  const options = { staleTime: (FILE_LINK_SECONDS - 60) * 1000, refetchOnWindowFocus: false, retry: 1 } as const;
  const member = trpc.chat.fileLinks.useQuery(
    { domain, conversationId: message.conversationId, messageIds: [message.id], variant },
    { ...options, enabled: enabled && source === 'member' },
  );
  const customer = trpc.customer.fileLinks.useQuery(
    { conversationId: message.conversationId, messageIds: [message.id], variant },
    { ...options, enabled: enabled && source === 'customer' },
  );
  const links = source === 'member' ? member : customer;
  return { url: links.data?.links[0]?.url, error: links.error };
}

/** A file, an image or a voice message, as its message shows it. */
export function FileContent({ message }: { message: FileMessage }) {
  const file = message.file;
  if (!file) return null;
  if (file.isRecording) return <VoiceMessage message={message} />;
  if (message.type === 'imagem') return <ImageMessage message={message} />;
  return <FileCard message={message} />;
}

/** Name, size and a download button; the link is asked for when clicked (it lasts minutes). */
function FileCard({ message }: { message: FileMessage }) {
  const { t, i18n } = useLingui();
  const source = useContext(FileLinkSource);
  const domain = useOptionalChat()?.domain ?? '';
  const utils = trpc.useUtils();
  const translate = useTranslateError();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const file = message.file!;

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const ask = { conversationId: message.conversationId, messageIds: [message.id], variant: 'file' as const, download: true };
      const { links } = source === 'member' ? await utils.client.chat.fileLinks.query({ domain, ...ask }) : await utils.client.customer.fileLinks.query(ask);
      const url = links[0]?.url;
      if (!url) throw new Error('File not found');
      const a = document.createElement('a');
      a.href = url;
      a.download = file.name;
      a.rel = 'noopener';
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) {
      setError(translate((err as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="file-card">
      <Icon name="file" size={28} />
      <span className="file-info">
        <span className="file-name">{file.name}</span>
        <span className="muted file-size">{fileSize(file.size, i18n.locale)}</span>
      </span>
      <button type="button" className="icon-button" onClick={() => void download()} disabled={busy} aria-label={t`Download ${file.name}`} title={t`Download`}>
        <Icon name="download" />
      </button>
      {error && (
        <span className="form-error file-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** The thumbnail in the message; clicking opens the full image over the screen. */
function ImageMessage({ message }: { message: FileMessage }) {
  const { t } = useLingui();
  const file = message.file!;
  const preview = useFileLink(message, file.hasThumb ? 'thumb' : 'file');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="image-thumb" onClick={() => setOpen(true)} aria-label={t`Open image ${file.name}`}>
        {preview.url ? <img src={preview.url} alt={file.name} loading="lazy" /> : <span className="image-placeholder" aria-hidden="true" />}
      </button>
      {open && <ImageViewer message={message} onClose={() => setOpen(false)} />}
    </>
  );
}

function ImageViewer({ message, onClose }: { message: FileMessage; onClose: () => void }) {
  const { t } = useLingui();
  const titleId = useId();
  const full = useFileLink(message, 'file');
  return (
    <FullScreenLayer labelledBy={titleId} onClose={onClose} className="image-viewer">
      <div className="image-viewer-bar">
        <h2 id={titleId}>{message.file!.name}</h2>
        {full.url && (
          <a className="icon-button" href={full.url} target="_blank" rel="noopener noreferrer" aria-label={t`Open in a new tab`} title={t`Open in a new tab`}>
            <Icon name="download" />
          </a>
        )}
        <IconButton label={t`Close`} icon={X} onPress={onClose} autoFocus />
      </div>
      {full.url ? <img src={full.url} alt={message.file!.name} /> : <p className="muted">…</p>}
    </FullScreenLayer>
  );
}

/**
 * A recording — a voice message, or a call's recording (video when the call had video) — played
 * inline by the browser's own player (keyboard and screen-reader ready), with its length.
 */
function VoiceMessage({ message }: { message: FileMessage }) {
  const { t } = useLingui();
  const file = message.file!;
  const link = useFileLink(message, 'file');
  const length = file.durationMs ? duration(file.durationMs) : '';
  if (file.mime?.startsWith('video/')) {
    return (
      <div className="call-recording">
        <span className="call-recording-head">
          <Film aria-hidden="true" />
          <Trans context="message">Call recording</Trans>
          {length && <span className="muted voice-length">{length}</span>}
        </span>
        {link.url ? <video controls preload="metadata" src={link.url} aria-label={t`Call recording ${length}`} /> : <span className="muted">…</span>}
        {link.error && (
          <span className="form-error" role="alert">
            <Trans>The file could not be loaded.</Trans>
          </span>
        )}
      </div>
    );
  }
  return (
    <div className="voice-message">
      <Icon name="mic" />
      {link.url ? <audio controls preload="metadata" src={link.url} aria-label={t`Voice message ${length}`} /> : <span className="muted">…</span>}
      {length && <span className="muted voice-length">{length}</span>}
      {link.error && (
        <span className="form-error" role="alert">
          <Trans>The file could not be loaded.</Trans>
        </span>
      )}
    </div>
  );
}
