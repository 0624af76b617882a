import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import { translateServerMessage } from '../../guard/serverMessages';

/** The server's text in the user's language (see guard/serverMessages.ts). */
export function useServerText() {
  const { i18n } = useLingui();
  return useCallback((message: string) => translateServerMessage(i18n, message), [i18n]);
}
