/**
 * Brazilian phone numbers (spec: the phone mask, landline vs mobile). Digits only in storage;
 * masked for display: landline (XX) XXXX-XXXX (10 digits), mobile (XX) XXXXX-XXXX (11 digits).
 */
export const onlyDigits = (value: string) => value.replace(/\D/g, '');

export function maskBrazilianPhone(value: string): string {
  const d = onlyDigits(value).slice(0, 11);
  if (d.length <= 2) return d.length ? `(${d}` : '';
  const area = `(${d.slice(0, 2)}) `;
  const rest = d.slice(2);
  // A mobile number has 9 digits after the area code; until the 11th digit it reads as landline.
  if (d.length === 11) return `${area}${rest.slice(0, 5)}-${rest.slice(5)}`;
  if (rest.length > 4) return `${area}${rest.slice(0, 4)}-${rest.slice(4)}`;
  return `${area}${rest}`;
}

/**
 * Digits with the country code. A number written with '+' is taken as international as it is;
 * otherwise 10 or 11 digits are a Brazilian number with its area code and get +55.
 */
export function normalizePhone(value: string): string | null {
  let d = onlyDigits(value);
  if (!value.trim().startsWith('+') && (d.length === 10 || d.length === 11)) d = `55${d}`;
  return d.length >= 8 && d.length <= 15 ? d : null;
}
