import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import superjson from 'superjson';
import type { AppRouter } from '../server/router';
import { widgetToken } from './embed';

/** Typed hooks for every procedure of the server's app router. */
export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: '/trpc',
        // The server refuses batches over TRPC_MAX_BATCH (at least 10).
        maxItems: 10,
        // tRPC v11 sets the transformer on the link; it must match the server's (superjson).
        transformer: superjson,
        // The session lives in an HttpOnly cookie; the embedded widget's in a header (see embed.ts).
        headers: () => {
          const token = widgetToken();
          return token ? { authorization: `Bearer ${token}` } : {};
        },
        fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }),
      }),
    ],
  });
}
