import { createContext, useContext, useEffect, useId, type ReactNode } from 'react';

export const BRAND = 'Atende';

const HeadingLevel = createContext(1);

/**
 * A screen's heading. Nested screens (a conversation inside the recent list, a drawer inside the
 * conversation) sit inside <Subpage>, so their titles become h2, h3... and the page keeps one h1.
 * The deepest title on screen also names the browser tab.
 */
export function PageTitle({ title }: { title: string }) {
  const level = useContext(HeadingLevel);
  const key = useId();
  useEffect(() => {
    titles.set(key, { level, title });
    showDeepestTitle();
    return () => {
      titles.delete(key);
      showDeepestTitle();
    };
  }, [key, level, title]);
  const Heading = `h${Math.min(level, 6)}` as 'h1';
  return <Heading className="page-title">{title}</Heading>;
}

/** Content nested one level below the current screen's title. */
export function Subpage({ children }: { children: ReactNode }) {
  const level = useContext(HeadingLevel);
  return <HeadingLevel.Provider value={level + 1}>{children}</HeadingLevel.Provider>;
}

const titles = new Map<string, { level: number; title: string }>();
let prefix = '';

function showDeepestTitle() {
  let deepest: { level: number; title: string } | undefined;
  for (const entry of titles.values()) if (!deepest || entry.level >= deepest.level) deepest = entry;
  document.title = prefix + (deepest ? `${deepest.title} · ${BRAND}` : BRAND);
}

/**
 * Something the tab title shows before the screen's own title, whatever screen is open: the chat's
 * unread count, '(3) ' (spec 2, Chat list). '' removes it.
 */
export function setTitlePrefix(value: string) {
  prefix = value;
  showDeepestTitle();
}
