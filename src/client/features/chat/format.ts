/** How the chat writes times, days, sizes and durations, and names what a message is. */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { InfoMessage } from '../../../shared/domain/info-messages';
import { callInfoMessage } from '../calls/infoMessages';
import { describeServiceInfo } from '../service/labels';
import type { ChatMessage } from './sync';

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** 14:05 */
export function timeOf(iso: string | Date, locale: string): string {
  return new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

/** The local day of a moment, for grouping messages under day separators. */
export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

/** Today, Yesterday, or the date written out (Monday, 20 November 2026). */
export function dayLabel(iso: string, i18n: I18n, now = new Date()): string {
  const d = new Date(iso);
  if (sameDay(d, now)) return i18n._(msg`Today`);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return i18n._(msg`Yesterday`);
  return d.toLocaleDateString(i18n.locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}

/** The recent list's time: the hour today, the weekday this week, else DD/MM/YYYY. */
export function listTime(iso: string | Date, locale: string, now = new Date()): string {
  const d = new Date(iso);
  if (sameDay(d, now)) return timeOf(d, locale);
  const days = (now.getTime() - d.getTime()) / 86_400_000;
  if (days < 6) return d.toLocaleDateString(locale, { weekday: 'short' });
  return d.toLocaleDateString(locale, { day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** 1.2 MB */
export function fileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}

/** 1:05 */
export function duration(ms: number): string {
  // Whole seconds passed, like any stopwatch: a recording shows 0:01 only once a second is in it.
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

function isInfo(data: unknown): data is InfoMessage {
  return typeof data === 'object' && data !== null && typeof (data as { info?: unknown }).info === 'string';
}

/**
 * An info message in the reader's language, by its kind (shared/domain/info-messages.ts); a kind
 * this client does not know yet shows the server's English text.
 */
export function infoText(message: Pick<ChatMessage, 'data' | 'text'>, i18n: I18n): string {
  const data = message.data;
  if (!isInfo(data)) return message.text;
  const list = (names: string[]) => new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(names);
  switch (data.info) {
    case 'participantsAdded': {
      const names = list(data.params.names);
      return i18n._(msg`New participants were added: ${names}`);
    }
    case 'participantRemoved': {
      const name = data.params.name;
      return i18n._(msg`${name} was removed`);
    }
    case 'participantLeft': {
      const name = data.params.name;
      return i18n._(msg`${name} left the conversation`);
    }
    case 'callNoAnswer':
    case 'callBusy':
      return i18n._(callInfoMessage(data));
    default:
      // Customer service's kinds (taken, transferred, concluded…); an unknown kind keeps the server's English.
      return describeServiceInfo(i18n, data) ?? message.text;
  }
}

/** What a message is, in a few words: for the recent list and for quotes. */
export function messageSummary(
  m: { type: string; text: string; data?: unknown; removed?: boolean; file?: { name: string; isRecording: boolean; durationMs: number | null; mime?: string | null } | null },
  i18n: I18n,
): { icon: 'image' | 'clip' | 'mic' | null; text: string } {
  if (m.removed || m.type === 'removida') return { icon: null, text: i18n._(msg`Message removed`) };
  if (m.type === 'info') return { icon: null, text: infoText({ data: m.data, text: m.text }, i18n) };
  if (m.file?.isRecording) {
    const length = m.file.durationMs ? ` ${duration(m.file.durationMs)}` : '';
    // A call's recording is a video file: it is not a voice message.
    if (m.file.mime?.startsWith('video/')) return { icon: 'clip', text: i18n._(msg({ message: 'Call recording', context: 'message' })) + length };
    return { icon: 'mic', text: i18n._(msg`Voice message`) + length };
  }
  if (m.type === 'imagem') return { icon: 'image', text: m.text || i18n._(msg`Photo`) };
  if (m.type === 'formulario') return { icon: 'clip', text: `${i18n._(msg`Form`)}: ${m.text}` };
  if (m.type === 'arquivo' || m.file) return { icon: 'clip', text: m.text || m.file?.name || i18n._(msg`File`) };
  return { icon: null, text: m.text };
}
