import { safeNextPath } from './next-path.ts';

test.each([
  [
    '/entities/00000000-0000-4000-8000-000000000001',
    '/entities/00000000-0000-4000-8000-000000000001',
  ],
  ['/search?companyName=north#results', '/search?companyName=north#results'],
  ['/legal-entities/new', '/legal-entities/new'],
])('keeps the same-site path %s', (next, expected) => {
  expect(safeNextPath(next, '/entities')).toBe(expected);
});

test.each([
  null,
  '',
  'entities',
  '//evil.example/phish',
  '/\\evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  ' /entities',
])('falls back for %s', (next) => {
  expect(safeNextPath(next, '/entities')).toBe('/entities');
});
