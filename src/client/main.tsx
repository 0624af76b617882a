import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { isRefusal } from './guard/accessRefusal';
import { activateLocale, DEFAULT_LOCALE, detectLocale } from './i18n';
import { createAppRouter } from './routes';
import { createTrpcClient, trpc } from './trpc';
import './ui/kit.css';
import './features/index.css';

// Network trouble and server errors are retried; a refusal is shown at once (see isRefusal).
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: (failures, error) => failures < 3 && !isRefusal(error) } },
});
const trpcClient = createTrpcClient();
const router = createAppRouter();

// The first paint is already in the user's language: the catalog (a few kB) loads before React.
// (Not a top-level await: that would stop Rollup from keeping the shell's shared code in this chunk.)
async function start() {
  try {
    await activateLocale(detectLocale());
  } catch (error) {
    console.error('language catalog failed to load; falling back to English', error);
    await activateLocale(DEFAULT_LOCALE);
  }
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </trpc.Provider>
      </I18nProvider>
    </StrictMode>,
  );
}

void start();
