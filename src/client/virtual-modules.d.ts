/** vite.config.ts (shellCatalog): the first download's messages of one language. */
declare module 'virtual:shell-catalog/*' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
