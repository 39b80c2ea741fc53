import type { Insertable } from 'kysely';
import { digitsOnly } from '../../../contract/identifiers.ts';
import { foldForSearch, normalisedRegistrationNumber } from '../../../contract/search-text.ts';
import type {
  Database,
  EntityInput,
  LegalEntityInput,
  NaturalPersonInput,
} from '../../db/schema.ts';
import { phoneSearchDigits } from './phone-search.ts';

const foldedOrNull = (text: string | null | undefined) =>
  text === null || text === undefined ? null : foldForSearch(text);

/** The row with the folded copies search compares; every writer of entities goes through these. */
export function withEntitySearchColumns(row: EntityInput): Insertable<Database['entities']> {
  return { ...row, external_id_folded: foldedOrNull(row.external_id) };
}

export function withLegalEntitySearchColumns(
  row: LegalEntityInput,
): Insertable<Database['legal_entities']> {
  const phone = phoneSearchDigits(row.company_phone, row.country);
  return {
    ...row,
    company_name_folded: foldForSearch(row.company_name),
    registration_number_normalised: normalisedRegistrationNumber(row.registration_number),
    company_phone_international_digits: phone.international,
    company_phone_national_digits: phone.national,
  };
}

export function withNaturalPersonSearchColumns(
  row: NaturalPersonInput,
): Insertable<Database['natural_persons']> {
  return naturalPersonWithSearchColumns(row, row.country_code);
}

/** `phoneCountry` reads the phone: the person's country code, or their company's for a contact. */
export function naturalPersonWithSearchColumns(
  row: NaturalPersonInput,
  phoneCountry: string | null | undefined,
): Insertable<Database['natural_persons']> {
  const phone = phoneSearchDigits(row.phone, phoneCountry);
  return {
    ...row,
    email_folded: foldedOrNull(row.email),
    first_name_folded: foldForSearch(row.first_name),
    last_name_folded: foldForSearch(row.last_name),
    phone_digits: row.phone === null || row.phone === undefined ? null : digitsOnly(row.phone),
    phone_international_digits: phone.international,
    phone_national_digits: phone.national,
  };
}
