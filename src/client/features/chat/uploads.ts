/**
 * Files, images and voice messages on their way to a conversation: `PUT /uploads/chat/{domain}/
 * {conversationId}` with the raw bytes through XMLHttpRequest (fetch cannot report upload
 * progress), an image preceded by a small JPEG thumbnail drawn here on a canvas. Each upload has
 * a client id made once, so trying again after a failure never stores the file twice. The store
 * lives with the chat (ChatProvider), so an upload keeps going while the user opens another
 * conversation.
 */
import type { ChatMessageEvent } from '../../../shared/chat-events';
import { fileTooLargeText, THUMB_MAX_BYTES } from '../../../shared/domain/files';
import { widgetToken } from '../../embed';

export interface Upload {
  /** The message's client id, also the upload's. */
  id: string;
  conversationId: string;
  name: string;
  size: number;
  percent: number;
  state: 'uploading' | 'failed';
  /** The server's text (or 'network'). */
  error?: string;
  isImage: boolean;
  recording?: { durationMs: number };
}

interface Job {
  upload: Upload;
  body: Blob;
  replyToId?: string;
  isComment?: boolean;
  xhr?: XMLHttpRequest;
}

/** The thumbnail's longest side, in pixels. */
const THUMB_SIDE = 320;

/**
 * A JPEG preview of an image, small enough for the server (THUMB_MAX_BYTES); null when the browser
 * cannot decode the image (the message then shows the full image).
 */
export async function makeThumbnail(file: Blob): Promise<Blob | null> {
  try {
    const bitmap = await createImageBitmap(file);
    for (const [side, quality] of [
      [THUMB_SIDE, 0.75],
      [240, 0.6],
      [160, 0.5],
    ] as const) {
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
      if (blob && blob.size <= THUMB_MAX_BYTES) {
        bitmap.close();
        return blob;
      }
    }
    bitmap.close();
  } catch {
    // Not an image this browser can draw.
  }
  return null;
}

export class UploadStore {
  private jobs = new Map<string, Job>();
  private listeners = new Set<() => void>();
  private cache = new Map<string, Upload[]>();
  /** The server's upload limit once known (chat.uploadLimits): a bigger file is refused here, before a byte is sent. */
  private maxBytes: number | null = null;

  constructor(
    private readonly domain: string,
    private readonly onSent: (message: ChatMessageEvent) => void,
  ) {}

  setMaxBytes(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** This conversation's uploads, oldest first (the same array while nothing changed). */
  list(conversationId: string): Upload[] {
    const cached = this.cache.get(conversationId);
    if (cached) return cached;
    const list = [...this.jobs.values()].filter((j) => j.upload.conversationId === conversationId).map((j) => j.upload);
    this.cache.set(conversationId, list);
    return list;
  }

  /** Sends a file (or a recording) to a conversation. */
  async start(
    conversationId: string,
    file: Blob,
    opts: { name: string; replyToId?: string; isComment?: boolean; recording?: { durationMs: number } },
  ): Promise<void> {
    const isImage = !opts.recording && file.type.startsWith('image/');
    const id = crypto.randomUUID();
    const upload: Upload = { id, conversationId, name: opts.name, size: file.size, percent: 0, state: 'uploading', isImage, recording: opts.recording };
    const job: Job = { upload, body: file, replyToId: opts.replyToId, isComment: opts.isComment };
    this.jobs.set(id, job);
    this.changed(conversationId);
    if (this.refuseTooLarge(job)) return;
    const thumb = isImage ? await makeThumbnail(file) : null;
    if (!this.jobs.has(id)) return; // cancelled while the thumbnail was drawn
    if (thumb) job.body = new Blob([thumb, file], { type: file.type });
    this.send(job, thumb?.size);
  }

  /** Stops an upload on its way (nothing is stored), or forgets a failed one. */
  cancel(id: string) {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    job.xhr?.abort();
    this.changed(job.upload.conversationId);
  }

  /** Tries a failed upload again, with the same client id. */
  retry(id: string) {
    const job = this.jobs.get(id);
    if (!job || job.upload.state !== 'failed' || this.refuseTooLarge(job)) return;
    const fileBytes = job.upload.size;
    this.send(job, job.body.size > fileBytes ? job.body.size - fileBytes : undefined);
  }

  stop() {
    for (const job of this.jobs.values()) job.xhr?.abort();
    this.jobs.clear();
    this.listeners.clear();
  }

  /** Over the limit: failed at once with the server's own text (shown translated, like the server's). */
  private refuseTooLarge(job: Job): boolean {
    if (this.maxBytes === null || job.upload.size <= this.maxBytes) return false;
    this.update(job, { state: 'failed', error: fileTooLargeText(this.maxBytes) });
    return true;
  }

  private send(job: Job, thumbBytes?: number) {
    const { upload } = job;
    const query = new URLSearchParams({ clientId: upload.id, name: upload.name });
    if (thumbBytes) query.set('thumbBytes', String(thumbBytes));
    if (upload.recording) {
      query.set('recording', '1');
      query.set('durationMs', String(Math.round(upload.recording.durationMs)));
    }
    if (job.replyToId) query.set('replyToId', job.replyToId);
    if (job.isComment) query.set('isComment', '1');
    const xhr = new XMLHttpRequest();
    job.xhr = xhr;
    this.update(job, { state: 'uploading', percent: 0, error: undefined });
    xhr.open('PUT', `/uploads/chat/${encodeURIComponent(this.domain)}/${encodeURIComponent(upload.conversationId)}?${query}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', job.body.type || 'application/octet-stream');
    const token = widgetToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) this.update(job, { percent: Math.min(99, Math.round((e.loaded / e.total) * 100)) });
    };
    xhr.onload = () => {
      if (!this.jobs.has(upload.id)) return;
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: a proxy's page
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object' && 'seq' in body) {
        this.jobs.delete(upload.id);
        this.changed(upload.conversationId);
        this.onSent(body as ChatMessageEvent);
        return;
      }
      const error = (body as { error?: string } | null)?.error ?? `HTTP ${xhr.status}`;
      this.update(job, { state: 'failed', error });
    };
    xhr.onerror = () => this.jobs.has(upload.id) && this.update(job, { state: 'failed', error: 'network' });
    xhr.send(job.body);
  }

  private update(job: Job, change: Partial<Upload>) {
    job.upload = { ...job.upload, ...change };
    this.changed(job.upload.conversationId);
  }

  private changed(conversationId: string) {
    this.cache.delete(conversationId);
    for (const l of [...this.listeners]) l();
  }
}
