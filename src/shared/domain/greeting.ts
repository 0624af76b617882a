import { DEFAULT_GREETING } from '../constants';

/**
 * The greeting that opens a request (configuracoes.msgSaudacao), with [nomecliente] and
 * [nomeempresa] filled in. Tags are matched in any case and every occurrence is replaced.
 */
export function fillGreeting(template: string | null | undefined, names: { customerName: string; companyName: string }): string {
  const text = template?.trim() ? template : DEFAULT_GREETING;
  return text.replace(/\[nomecliente\]/gi, () => names.customerName.trim()).replace(/\[nomeempresa\]/gi, () => names.companyName.trim());
}
