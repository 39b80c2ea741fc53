import {
  filterFromValues,
  searchParamsFromFilter,
  valuesFromSearchParams,
} from './audit-filter-params.ts';

test('an address becomes a filter of its set fields and back, in one order', () => {
  const values = valuesFromSearchParams(
    new URLSearchParams('to=2026-03-31&actor=dana&from=2026-03-01&unknown=x'),
  );
  expect(values).toEqual({
    actor: 'dana',
    action: '',
    entityId: '',
    from: '2026-03-01',
    to: '2026-03-31',
  });
  const filter = filterFromValues(values);
  expect(filter).toEqual({ actor: 'dana', from: '2026-03-01', to: '2026-03-31' });
  expect(searchParamsFromFilter(filter ?? {}).toString()).toBe(
    'actor=dana&from=2026-03-01&to=2026-03-31',
  );
});

test('a malformed or backwards date range is no filter at all', () => {
  const base = { actor: '', action: '', entityId: '', from: '', to: '' };
  expect(filterFromValues({ ...base, from: '2026-02-30' })).toBeNull();
  expect(filterFromValues({ ...base, from: '2026-03-02', to: '2026-03-01' })).toBeNull();
  expect(filterFromValues({ ...base, actor: '   ' })).toEqual({});
});
