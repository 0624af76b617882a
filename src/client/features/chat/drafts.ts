import { useCallback, useEffect, useRef, useState } from 'react';
import { trpc } from '../../trpc';
import { useChat } from './ChatProvider';

/** Saving waits for a pause in the typing. */
const SAVE_DELAY_MS = 800;

/**
 * The text being written in a conversation, kept on the server (chat.saveDraft) so it follows the
 * person to another tab or device: saved after a pause in the typing and when leaving the
 * conversation; an empty draft is deleted (spec 5). Sending clears it on the server by itself:
 * `sent()` only forgets the pending save.
 */
export function useDraft(conversationId: string, initial: string): { text: string; setText: (text: string) => void; sent: () => void } {
  const { domain } = useChat();
  const utils = trpc.useUtils();
  const [text, setTextState] = useState(initial);
  const pending = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(0);
  const save = trpc.chat.saveDraft.useMutation({
    onMutate: () => void inFlight.current++,
    onSettled: () => void inFlight.current--,
    onSuccess: ({ draft }) => {
      utils.chat.conversation.setData({ domain, conversationId }, (c) => c && { ...c, me: { ...c.me, draft } });
      void utils.chat.recents.invalidate();
    },
  });
  const saveRef = useRef(save.mutate);
  saveRef.current = save.mutate;

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (pending.current === null) return;
    const value = pending.current;
    pending.current = null;
    saveRef.current({ domain, conversationId, text: value });
  }, [domain, conversationId]);

  // Leaving the conversation (or the page) saves what is still waiting.
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const setText = useCallback(
    (value: string) => {
      setTextState(value);
      pending.current = value;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flush, SAVE_DELAY_MS);
    },
    [flush],
  );

  const sent = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
    setTextState('');
    // A save still on its way could land after the message and bring the text back as a draft.
    if (inFlight.current > 0) saveRef.current({ domain, conversationId, text: '' });
    utils.chat.conversation.setData({ domain, conversationId }, (c) => c && { ...c, me: { ...c.me, draft: '' } });
  }, [utils, domain, conversationId]);

  return { text, setText, sent };
}
