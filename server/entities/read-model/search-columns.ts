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

/** The legal entity or person row stored with an entity, as the functions below return it. */
export type EntitySubjectRow =
  Insertable<Database['legal_entities']> | Insertable<Database['natural_persons']>;

/**
 * The row with the folded copies search compares; every writer of entities goes through these.
 * It also holds the copies of its subject's country and name that 0011's and 0029's triggers keep,
 * as they write them, so that those triggers find nothing to change (0041) and a new entity is
 * written once, not three times. A row written as straight into the database (the test fixtures)
 * passes null and leaves the copies to the triggers.
 */
export function withEntitySearchColumns(
  row: EntityInput,
  subject: EntitySubjectRow | null,
): Insertable<Database['entities']> {
  const folded = { ...row, external_id_folded: foldedOrNull(row.external_id) };
  if (subject === null) return folded;
  const copies =
    'company_name_folded' in subject
      ? { country: subject.country, name_order: subject.company_name_folded }
      : {
          country: subject.country_code?.toUpperCase(),
          name_order: `${subject.last_name_folded} ${subject.first_name_folded}`,
        };
  return {
    ...folded,
    // 0037: an empty country is null.
    country: copies.country === '' ? null : (copies.country ?? null),
    name_order: copies.name_order,
  };
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
