import { z } from 'zod';
import { emailSchema } from '../../../contract/common.ts';
import {
  SEARCH_FIELDS,
  type LegalEntitySearchQuery,
  type SearchField,
} from '../../../contract/entities.ts';

/** Each search field with its label; the names are the API's query parameters and the URL's. */
export const SEARCH_FORM_FIELDS: { name: SearchField; label: string; description: string }[] = [
  { name: 'companyName', label: 'Company name', description: 'Part of the name is enough' },
  { name: 'registrationNumber', label: 'Registration number', description: 'Exact match' },
  { name: 'externalID', label: 'External ID', description: 'Exact match' },
  { name: 'duns', label: 'DUNS', description: 'Digits only, up to 9' },
  { name: 'glei', label: 'LEI', description: '20 letters and digits' },
  { name: 'email', label: 'Primary contact e-mail', description: 'Exact match' },
  { name: 'phone', label: 'Phone', description: 'Only the digits are compared' },
];

/** Empty means "not searched on"; a filled field must make sense before it is sent. */
function optional(check: (value: string) => boolean, message: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .refine((value) => value === '' || check(value), message);
}

const anyText = () => true;

export const searchFormSchema = z.object({
  externalID: optional(anyText, '', 100),
  duns: optional(
    (value) => /^\d{1,9}$/.test(value),
    'A DUNS number has digits only, at most 9.',
    9,
  ),
  glei: optional(
    (value) => /^[0-9A-Za-z]{20}$/.test(value),
    'An LEI has exactly 20 letters and digits.',
    20,
  ),
  companyName: optional(anyText, '', 200),
  registrationNumber: optional(anyText, '', 64),
  email: optional(
    (value) => emailSchema.safeParse(value).success,
    'Enter a valid e-mail address.',
    254,
  ),
  phone: optional((value) => /\d/.test(value), 'A phone number needs at least one digit.', 40),
});
export type SearchFormValues = z.input<typeof searchFormSchema>;

export const EMPTY_SEARCH: SearchFormValues = {
  externalID: '',
  duns: '',
  glei: '',
  companyName: '',
  registrationNumber: '',
  email: '',
  phone: '',
};

export function valuesFromSearchParams(params: URLSearchParams): SearchFormValues {
  const values = { ...EMPTY_SEARCH };
  for (const field of SEARCH_FIELDS) values[field] = params.get(field) ?? '';
  return values;
}

/** The filled, trimmed fields only: what the API and the address bar carry. */
export function searchQueryFromValues(values: SearchFormValues): LegalEntitySearchQuery {
  const query: LegalEntitySearchQuery = {};
  for (const field of SEARCH_FIELDS) {
    const value = values[field].trim();
    if (value !== '') query[field] = value;
  }
  return query;
}

export function searchParamsFromQuery(query: LegalEntitySearchQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of SEARCH_FIELDS) {
    const value = query[field];
    if (value !== undefined) params.set(field, value);
  }
  return params;
}

export function isSearchField(name: string): name is SearchField {
  return (SEARCH_FIELDS as readonly string[]).includes(name);
}
