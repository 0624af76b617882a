import { lazy, Suspense, type ComponentProps, type ComponentType, type JSX } from 'react';

/**
 * Kit components whose code (React Aria) loads when they are first rendered rather than with the
 * page: for what a screen of the first download only shows now and then (a help dialog over the
 * shell). Same props as the kit's; nothing is shown while the code arrives (a few ms).
 */
function deferred<C extends ComponentType<any>>(load: () => Promise<C>) {
  const Part = lazy(async () => ({ default: await load() }));
  return function Deferred(props: ComponentProps<C> & JSX.IntrinsicAttributes) {
    return (
      <Suspense fallback={null}>
        <Part {...(props as ComponentProps<C>)} />
      </Suspense>
    );
  };
}

export const ModalDialog = deferred(() => import('./Dialog').then((m) => m.ModalDialog));
export const Button = deferred(() => import('./Button').then((m) => m.Button));
