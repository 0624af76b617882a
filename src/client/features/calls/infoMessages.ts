import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { InfoMessage } from '../../../shared/domain/info-messages';

type CallInfo = Extract<InfoMessage, { info: 'callNoAnswer' | 'callBusy' }>;

/**
 * The calls' info messages in the reader's language, for the conversation view: '{name} não
 * atendeu' and '{name} - Está em outra chamada no momento.'.
 */
export function callInfoMessage(m: CallInfo): MessageDescriptor {
  const { name } = m.params;
  return m.info === 'callNoAnswer' ? msg`${name} did not answer` : msg`${name} - Is on another call right now.`;
}
