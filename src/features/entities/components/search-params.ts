import { z } from 'zod';
import { emailSchema } from '../../../../contract/common.ts';
import {
  NATURAL_PERSON_SEARCH_FIELDS,
  SEARCH_FIELDS,
  type NaturalPersonSearchField,
  type SearchField,
} from '../../../../contract/entities.ts';
import type { EntityCollection } from '../../../lib/entity-queries.ts';

export type SearchTab = 'companies' | 'people';

/** The address parameter naming the tab; absent means companies, so older search links still work. */
export const SEARCH_TAB_PARAM = 'in';

/** Field name to text, as typed; the filled, trimmed ones are what the API and the address carry. */
export type SearchFormValues = Record<string, string>;

interface SearchFormField<Name extends string = string> {
  name: Name;
  label: string;
  description: string;
  type?: 'email' | 'tel';
  inputMode?: 'numeric';
}

/** One tab of the search page: its fields (the API's query parameters and the URL's) and checks. */
export interface SearchKind {
  tab: SearchTab;
  collection: EntityCollection;
  tabLabel: string;
  formLabel: string;
  noMatchTitle: string;
  fieldNames: readonly string[];
  fields: readonly SearchFormField[];
  schema: z.ZodType<SearchFormValues, SearchFormValues>;
}

/** Empty means "not searched on"; a filled field must make sense before it is sent. */
function optional(check: (value: string) => boolean, message: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .refine((value) => value === '' || check(value), message);
}

const anyText = () => true;
const validEmail = () =>
  optional((value) => emailSchema.safeParse(value).success, 'Enter a valid e-mail address.', 254);
const phoneWithDigit = () =>
  optional((value) => /\d/.test(value), 'A phone number needs at least one digit.', 40);

export const companySearch: SearchKind = {
  tab: 'companies',
  collection: 'legal-entities',
  tabLabel: 'Companies',
  formLabel: 'Search legal entities',
  noMatchTitle: 'No legal entities match',
  fieldNames: SEARCH_FIELDS,
  fields: [
    { name: 'companyName', label: 'Company name', description: 'Part of the name is enough' },
    { name: 'registrationNumber', label: 'Registration number', description: 'Exact match' },
    { name: 'externalID', label: 'External ID', description: 'Exact match' },
    { name: 'duns', label: 'DUNS', description: 'Digits only, up to 9', inputMode: 'numeric' },
    { name: 'glei', label: 'LEI', description: '20 letters and digits' },
    { name: 'email', label: 'Primary contact e-mail', description: 'Exact match', type: 'email' },
    { name: 'phone', label: 'Phone', description: 'Only the digits are compared', type: 'tel' },
  ] satisfies SearchFormField<SearchField>[],
  schema: z.object({
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
    email: validEmail(),
    phone: phoneWithDigit(),
  } satisfies Record<SearchField, z.ZodType>),
};

export const peopleSearch: SearchKind = {
  tab: 'people',
  collection: 'natural-persons',
  tabLabel: 'People',
  formLabel: 'Search natural persons',
  noMatchTitle: 'No people match',
  fieldNames: NATURAL_PERSON_SEARCH_FIELDS,
  fields: [
    { name: 'firstName', label: 'First name', description: 'Part of the name is enough' },
    { name: 'lastName', label: 'Last name', description: 'Part of the name is enough' },
    { name: 'email', label: 'E-mail', description: 'Exact match', type: 'email' },
    { name: 'phone', label: 'Phone', description: 'Only the digits are compared', type: 'tel' },
    { name: 'externalID', label: 'External ID', description: 'Exact match' },
  ] satisfies SearchFormField<NaturalPersonSearchField>[],
  schema: z.object({
    firstName: optional(anyText, '', 100),
    lastName: optional(anyText, '', 100),
    email: validEmail(),
    phone: phoneWithDigit(),
    externalID: optional(anyText, '', 100),
  } satisfies Record<NaturalPersonSearchField, z.ZodType>),
};

export const SEARCH_KINDS: readonly SearchKind[] = [companySearch, peopleSearch];

export function tabFromSearchParams(params: URLSearchParams): SearchTab {
  return params.get(SEARCH_TAB_PARAM) === 'people' ? 'people' : 'companies';
}

export function emptySearch(kind: SearchKind): SearchFormValues {
  return Object.fromEntries(kind.fieldNames.map((field) => [field, '']));
}

export function valuesFromSearchParams(
  kind: SearchKind,
  params: URLSearchParams,
): SearchFormValues {
  return Object.fromEntries(kind.fieldNames.map((field) => [field, params.get(field) ?? '']));
}

/** The filled, trimmed fields only: what the API and the address bar carry. */
export function searchQueryFromValues(
  kind: SearchKind,
  values: SearchFormValues,
): SearchFormValues {
  const query: SearchFormValues = {};
  for (const field of kind.fieldNames) {
    const value = values[field]?.trim() ?? '';
    if (value !== '') query[field] = value;
  }
  return query;
}

/** The address of a search: the tab (people only) and then the filled fields in a fixed order. */
export function searchParamsFromQuery(kind: SearchKind, query: SearchFormValues): URLSearchParams {
  const params = new URLSearchParams();
  if (kind.tab === 'people') params.set(SEARCH_TAB_PARAM, 'people');
  for (const field of kind.fieldNames) {
    const value = query[field];
    if (value !== undefined) params.set(field, value);
  }
  return params;
}

export function isSearchField(kind: SearchKind, name: string): boolean {
  return kind.fieldNames.includes(name);
}
