import { filterSections, looksLikeId, type PaletteSection } from './palette-items.ts';

const noop = () => undefined;
const sections: PaletteSection[] = [
  {
    id: 'pages',
    title: 'Go to',
    items: [
      { id: 'onboard', label: 'Onboard legal entity', keywords: ['new', 'create'], onSelect: noop },
      { id: 'search', label: 'Search', description: 'Find entities by any field', onSelect: noop },
    ],
  },
  { id: 'account', title: 'Account', items: [{ id: 'out', label: 'Sign out', onSelect: noop }] },
];

test('commands match every typed word in label, description or keywords, in any case', () => {
  expect(filterSections(sections, '')).toBe(sections);
  expect(filterSections(sections, 'NEW legal').flatMap((s) => s.items.map((i) => i.id))).toEqual([
    'onboard',
  ]);
  expect(filterSections(sections, 'find').flatMap((s) => s.items.map((i) => i.id))).toEqual([
    'search',
  ]);
  // A section with nothing left disappears with its title.
  expect(filterSections(sections, 'sign').map((s) => s.id)).toEqual(['account']);
  expect(filterSections(sections, 'zebra')).toEqual([]);
});

test('commands are matched as the server search matches names: accents and typographic punctuation ignored', () => {
  const ids = (query: string) =>
    filterSections(sections, query).flatMap((s) => s.items.map((i) => i.id));
  expect(ids('ONBOARD LÉGAL')).toEqual(['onboard']);
  expect(ids('sïgn')).toEqual(['out']);
});

test('an ID is a UUID or one word with a digit; names are not', () => {
  expect(looksLikeId('00000000-0000-4000-8000-000000000001')).toBe(true);
  expect(looksLikeId('le_8f2k19x')).toBe(true);
  expect(looksLikeId('Northwind')).toBe(false);
  expect(looksLikeId('Acme 2000 Ltd')).toBe(false);
  expect(looksLikeId('ab1')).toBe(false);
  expect(looksLikeId('a/b/c/123')).toBe(false);
});
