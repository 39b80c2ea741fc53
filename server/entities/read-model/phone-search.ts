import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { digitsOnly } from '../../../contract/identifiers.ts';

/** A stored phone number's digits as search compares them. */
export interface PhoneSearchDigits {
  /** Country calling code and national significant number, or the digits as entered. */
  international: string | null;
  /** The national significant number; null when the number does not parse. */
  national: string | null;
}

/** The digit strings a searched phone number may be stored as, per derived column. */
export interface PhoneQuery {
  international: string[];
  national: string[];
}

/** A number with `+` (or `00`, `011`... read for `country`), else one read for `country`. */
function parsed(phone: string, country: string | null | undefined) {
  const defaultCountry = country && isSupportedCountry(country) ? country : undefined;
  const number = parsePhoneNumberFromString(phone, defaultCountry);
  return (
    number && {
      international: `${number.countryCallingCode}${number.nationalNumber}`,
      national: number.nationalNumber,
    }
  );
}

/**
 * The derived search digits of a phone stored as entered, read for the entity's country (a
 * number in international form is read as such). A number that does not parse keeps its digits,
 * as search compared it before 0022.
 */
export function phoneSearchDigits(
  phone: string | null | undefined,
  country: string | null | undefined,
): PhoneSearchDigits {
  if (phone === null || phone === undefined) return { international: null, national: null };
  const number = parsed(phone, country);
  if (number) return number;
  const digits = digitsOnly(phone);
  return { international: digits === '' ? null : digits, national: null };
}

/**
 * What a searched number may match: its digits in either column; without a leading `00` (the
 * international prefix) or read as international, against the international digits; without one
 * leading `0` (a trunk prefix), against the national number.
 */
export function phoneQuery(text: string): PhoneQuery {
  const digits = digitsOnly(text);
  const international = new Set([digits]);
  const national = new Set([digits]);
  const asInternational = text.trim().startsWith('+')
    ? parsed(text, undefined)
    : digits.startsWith('00')
      ? parsed(`+${digits.slice(2)}`, undefined)
      : undefined;
  if (digits.startsWith('00')) international.add(digits.slice(2));
  // A number with its country code is not compared with other countries' national numbers.
  if (asInternational) international.add(asInternational.international);
  if (digits.startsWith('0')) national.add(digits.slice(1));
  const nonEmpty = (values: Set<string>) => [...values].filter((value) => value !== '');
  return { international: nonEmpty(international), national: nonEmpty(national) };
}
