import {
  DEFAULT_LIST_FILTERS,
  filtersFromSearchParams,
  searchParamsFromFilters,
} from './entity-list-params.ts';

test('an empty address gives the defaults', () => {
  expect(filtersFromSearchParams(new URLSearchParams())).toEqual(DEFAULT_LIST_FILTERS);
});

test('reads every setting', () => {
  const params = new URLSearchParams(
    'type=legal-entities&limit=25&start=50&descending=true&corporateVerification=true&supportingDocuments=true',
  );
  expect(filtersFromSearchParams(params)).toEqual({
    type: 'legal-entities',
    limit: 25,
    start: 50,
    descending: true,
    corporateVerification: true,
    supportingDocuments: true,
  });
});

test('invalid values fall back to their defaults', () => {
  const params = new URLSearchParams(
    'type=robots&limit=7&start=-10&descending=yes&corporateVerification=1&supportingDocuments=',
  );
  expect(filtersFromSearchParams(params)).toEqual(DEFAULT_LIST_FILTERS);
  expect(filtersFromSearchParams(new URLSearchParams('limit=abc&start=1.5'))).toEqual(
    DEFAULT_LIST_FILTERS,
  );
});

test('writes only non-default settings and reads them back unchanged', () => {
  expect(searchParamsFromFilters(DEFAULT_LIST_FILTERS).toString()).toBe('');
  const filters = { ...DEFAULT_LIST_FILTERS, type: 'natural-persons' as const, start: 20 };
  const params = searchParamsFromFilters(filters);
  expect(params.toString()).toBe('type=natural-persons&start=20');
  expect(filtersFromSearchParams(params)).toEqual(filters);
});
