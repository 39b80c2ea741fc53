import { formatAccount, formatDate, formatDateTime } from './format.ts';

test('dates read day, short month, year, whatever the locale', () => {
  expect(formatDate('2026-11-25')).toBe('25 Nov 2026');
  expect(formatDate('2026-09-05')).toBe('5 Sep 2026');
  expect(formatDate(null)).toBe('—');
  expect(formatDate('not a date')).toBe('not a date');
});

test('times carry their zone, UTC', () => {
  expect(formatDate('2026-11-25T23:55:12.345Z')).toBe('25 Nov 2026, 23:55 UTC');
  expect(formatDate('2026-11-25 23:55:12')).toBe('25 Nov 2026, 23:55 UTC');
  expect(formatDateTime('2026-11-26T01:05:00+02:00')).toBe('25 Nov 2026, 23:05 UTC');
  expect(formatDateTime('2026-11-25T00:00:00Z')).toBe('25 Nov 2026, 00:00 UTC');
});

test('accounts read "Name (username)", or the username alone when no other name is known', () => {
  expect(formatAccount('rhea', 'Rhea Reviewer')).toBe('Rhea Reviewer (rhea)');
  expect(formatAccount('rhea', null)).toBe('rhea');
  expect(formatAccount('rhea', undefined)).toBe('rhea');
  expect(formatAccount('rhea', '  ')).toBe('rhea');
  expect(formatAccount('demo', 'demo')).toBe('demo');
});
