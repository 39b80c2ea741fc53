import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

/**
 * Why `phone` is not a valid number for `country`, or null when it is (decisions.md, "Dates"): a
 * number starting with `+` is read in international form, wherever it is from; any other is read
 * as dialled in `country`. Validity is libphonenumber's full metadata (number ranges per country).
 */
export function phoneProblemOf(phone: string, country: string): string | null {
  const international = phone.trimStart().startsWith('+');
  if (!international && !isSupportedCountry(country)) {
    return `Give the number in international form (starting with + and the country code): numbers dialled in ${country} cannot be checked.`;
  }
  const parsed = parsePhoneNumberFromString(
    phone,
    international ? undefined : (country as CountryCode),
  );
  if (parsed?.isValid()) return null;
  return international
    ? 'Not a valid phone number: check the country code and the digits.'
    : `Not a valid phone number in ${country}. A number from another country starts with + and its country code.`;
}
