import { lazy, type ComponentType } from 'react';

/** The exports of a module that are components. */
export type PageName<M> = { [K in keyof M]: M[K] extends ComponentType ? K : never }[keyof M];

export interface LazyModule<M> {
  /** A component showing the module's screen `name`. */
  page(name: PageName<M>): ComponentType;
  /** Fetches the module (once), showing nothing. */
  preload(): Promise<M>;
}

/**
 * A lazily imported module of screens (an area's pages.tsx) whose screens, once the module is
 * here, render at once instead of suspending. React.lazy suspends on every first render of each
 * lazy component even when its module is already loaded, and React 19 shows what a Suspense
 * boundary revealed no sooner than 300 ms after its fallback: a screen whose code was fetched in
 * advance (features/recent/prefetch.ts) or opened before still waited that long (docs/performance.md
 * section 22). `preload` fetches the module without showing anything.
 */
export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const preload = (): Promise<M> =>
    (loading ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => {
        // Asked again by the next render or prefetch (a deploy replaced the chunk, the network blinked).
        loading = undefined;
        throw err;
      },
    ));
  function page(name: PageName<M>): ComponentType {
    const Lazy = lazy(async () => ({ default: (await preload())[name] as ComponentType }));
    return function ModulePage() {
      const Loaded = loaded?.[name] as ComponentType | undefined;
      return Loaded ? <Loaded /> : <Lazy />;
    };
  }
  return { page, preload };
}
