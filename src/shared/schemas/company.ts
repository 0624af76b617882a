import { z } from 'zod';
import { DOMAIN_MAX_LENGTH, DOMAIN_MIN_LENGTH } from '../constants';

/** dominio: the tenant key. 3 to 15 lowercase letters or digits, no spaces (spec 5). */
export const domainSchema = z
  .string()
  .trim()
  .regex(
    new RegExp(`^[a-z0-9]{${DOMAIN_MIN_LENGTH},${DOMAIN_MAX_LENGTH}}$`),
    `The domain must have ${DOMAIN_MIN_LENGTH} to ${DOMAIN_MAX_LENGTH} lowercase letters or digits, without spaces`,
  );

export const companyInput = z.object({ domain: domainSchema });
