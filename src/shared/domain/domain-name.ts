import { DOMAIN_MAX_LENGTH, DOMAIN_MIN_LENGTH } from '../constants';

/** A company's domain: what domainSchema (schemas/company.ts) accepts, without loading zod. */
export const DOMAIN_PATTERN = new RegExp(`^[a-z0-9]{${DOMAIN_MIN_LENGTH},${DOMAIN_MAX_LENGTH}}$`);

export function isDomainName(value: string): boolean {
  return DOMAIN_PATTERN.test(value.trim());
}
