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

/** +55 and the area code make a full number: 12 or 13 digits. Other countries: 8 to 15 digits. */
export function normalizePhone(value: string): string | null {
  let d = onlyDigits(value);
  if (d.length === 10 || d.length === 11) d = `55${d}`;
  return d.length >= 8 && d.length <= 15 ? d : null;
}
