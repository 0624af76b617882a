/**
 * Pure rules of the e-mail integration (issue 17; spec Integration: e-mail, title TAGs): the
 * subject tag that keeps a thread in its conversation, Message-ID lists, and which Integration
 * a new mail is routed by.
 */

/** The tag our mails carry in the subject: a reply whose client dropped the headers still finds its conversation. */
export const subjectTag = (protocol: string) => `[#${protocol}]`;

/** The protocol number in a subject's tag, if any (protocols are 15 digits). */
export function protocolInSubject(subject: string): string | null {
  return /\[#(\d{15})\]/.exec(subject)?.[1] ?? null;
}

/** "Re: <subject> [#protocol]": one "Re:", the tag once. */
export function replySubject(subject: string, protocol: string): string {
  const base = subject.replace(/^\s*((re|res|aw|fw|fwd|enc|rv)\s*:\s*)+/i, '').trim() || '(no subject)';
  const tagged = base.includes(subjectTag(protocol)) ? base : `${base} ${subjectTag(protocol)}`;
  return `Re: ${tagged}`;
}

/** A Message-ID without its angle brackets, as we store it. */
export const bareMessageId = (id: string) => id.trim().replace(/^<|>$/g, '').trim();

/** Every Message-ID of In-Reply-To and References, newest first (the one replied to is the best match). */
export function threadIds(inReplyTo: string | undefined, references: string | string[] | undefined): string[] {
  const refs = (Array.isArray(references) ? references.join(' ') : (references ?? '')).match(/<[^<>\s]+>|[^<>\s]+@[^<>\s]+/g) ?? [];
  const all = [...(inReplyTo?.match(/<[^<>\s]+>|[^<>\s]+@[^<>\s]+/g) ?? []), ...refs.reverse()].map(bareMessageId).filter(Boolean);
  return [...new Set(all)].slice(0, 50);
}

/** Tags as an admin typed them: trimmed, no empties, no repeats (case-insensitive), at most 20. */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tags.map((x) => x.trim()).filter(Boolean)) {
    if (seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t.slice(0, 60));
  }
  return out.slice(0, 20);
}

export interface IntegrationRule {
  id: string;
  email: string;
  tags: string[];
  queueId: string;
}

/**
 * The Integration a new mail is routed by: it must have been sent to the integration's address
 * (a blank address takes any), and carry one of its title TAGs in the subject when it has tags.
 * The most specific wins: a tag and the address, then a tag alone, then the address alone, then a
 * catch-all; among equals, the first configured.
 */
export function routeMail(rules: IntegrationRule[], recipients: string[], subject: string): IntegrationRule | null {
  const to = new Set(recipients.map((r) => r.trim().toLowerCase()));
  const title = subject.toLowerCase();
  let best: { rule: IntegrationRule; score: number } | null = null;
  for (const rule of rules) {
    const address = rule.email.trim().toLowerCase();
    if (address && !to.has(address)) continue;
    const tagged = rule.tags.length > 0;
    if (tagged && !rule.tags.some((t) => title.includes(t.toLowerCase()))) continue;
    const score = (tagged ? 2 : 0) + (address ? 1 : 0);
    if (!best || score > best.score) best = { rule, score };
  }
  return best?.rule ?? null;
}

/**
 * A reply's own words: the quoted history below ("On … wrote:", "Em … escreveu:", "> " lines,
 * an "-----Original Message-----" block) is already in the conversation.
 */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const cut = lines.findIndex(
    (l, i) =>
      /^\s*(On|Em|El|Il|Am)\s.+(wrote|escreveu|escribió|ha scritto|schrieb)\s*:\s*$/i.test(l) ||
      /^\s*-{2,}\s*(Original Message|Mensagem original|Mensaje original)\s*-{2,}\s*$/i.test(l) ||
      (/^\s*>/.test(l) && lines.slice(i).every((x) => /^\s*(>|$)/.test(x))),
  );
  return (cut >= 0 ? lines.slice(0, cut) : lines).join('\n').trim();
}
