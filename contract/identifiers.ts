/** ISO 7064 mod 97-10 remainder, letters counting as 10 (A) to 35 (Z). */
function mod97(value: string): number {
  let remainder = 0;
  for (const char of value) {
    const digits = /[0-9]/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** ISO 17442 LEI: 18 alphanumerics then 2 check digits, the whole leaving remainder 1 mod 97. */
/** ISO 17442: 18 upper-case letters or digits, then two check digits. */
export const LEI_PATTERN = /^[0-9A-Z]{18}[0-9]{2}$/;

export function isValidLei(value: string): boolean {
  return LEI_PATTERN.test(value) && mod97(value) === 1;
}

/** Appends the two check digits to an 18-character LEI prefix. */
export function withLeiCheckDigits(prefix: string): string {
  return prefix + String(98 - mod97(`${prefix}00`)).padStart(2, '0');
}

/** Bytes a standard base64 string decodes to, or null when it is not valid base64. */
export function base64DecodedSize(value: string): number | null {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/** Digits only, for comparing phone numbers written with punctuation. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}
