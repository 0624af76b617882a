/**
 * A package loaded on its first use instead of when the server starts. Importing every package at
 * boot was most of a restart's time (docs/performance.md section 23): the ones only some features
 * or some deployments need (IMAP, PDFs, S3, Stripe, mail parsing, QR codes, the common-password
 * list) wait until something asks for them. Synchronous (`require`), so the callers keep their
 * shapes; every package loaded this way ships CommonJS. Types come from `import type` as before.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}
