import { lazyModule } from '../../lazyModule';

/**
 * What opening a conversation needs, fetched while the attendant looks at the list: the recent
 * area's screens and the chat's (two chunks, the second asked only once the first ran) with the
 * whole catalogue of the language (every chunk beyond the first download waits for it). Without
 * this, a click on a conversation waited for those downloads, one after the other, before its
 * first query: about half of the second it took (docs/performance.md section 22).
 *
 * It starts when the browser is idle after the list showed, so the list's first paint does not
 * share the network with it, and not at all when the user asked to save data.
 * `performance.mark(CONVERSATION_PREFETCH_MARK)` names that moment: bench/cold-start counts only
 * the scripts asked before it as the initial download of /i/recent.
 */
export const CONVERSATION_PREFETCH_MARK = 'app:prefetch-conversation';

/** The recent area's screens (routes.tsx shows them from here): the conversation, its panels. */
export const recentPages = lazyModule(() => import('./pages'));

let started = false;

export function prefetchConversation() {
  if (started) return;
  started = true;
  if ((navigator as { connection?: { saveData?: boolean } }).connection?.saveData) return;
  const go = () => {
    performance.mark(CONVERSATION_PREFETCH_MARK);
    // A failure here costs nothing: opening the conversation asks for the same chunks again.
    void recentPages.preload().then((pages) => pages.chatPages.preload()).catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: 2_000 });
  else setTimeout(go, 200);
}
