import { foldForSearch } from './search-text.ts';

describe('foldForSearch', () => {
  // Expected values are Python's str.casefold() after NFKC (full case folding, CaseFolding.txt C + F).
  it.each([
    ['ÉCOLE ÖSTERREICH', 'école österreich'],
    ['E\u0301COLE', 'école'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['\u1E9E', 'ss'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['\u1FBC', 'αι'],
    ['\u1FB7', '\u03B1\u0342\u03B9'],
    ['\u0390', '\u03B9\u0308\u0301'],
    ['\u1C80', 'в'],
    ['ПРИВЕТ', 'привет'],
    ['\u01F0', 'j\u030C'],
    ['J\u030C', 'j\u030C'],
    ['İstanbul', 'i\u0307stanbul'],
    ['ısparta', 'ısparta'],
    ['\u212A', 'k'],
    ['\uFB01nance', 'finance'],
    ['ＡＢＣ１', 'abc1'],
    ['\u0149', '\u02BCn'],
    ['ǅ', 'dž'],
    ['µ', 'μ'],
    ['ſ', 's'],
  ])('folds %j to %j', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('gives upper- and lower-case spellings of Latin, Greek and Cyrillic names one form', () => {
    for (const name of ['Großhandel Süd', 'Ωμέγα Ναυτιλιακή', 'Общество Ёлка', 'Ærø Fjällräven']) {
      expect(foldForSearch(name.toUpperCase())).toBe(foldForSearch(name));
      expect(foldForSearch(name.toLowerCase())).toBe(foldForSearch(name));
    }
  });
});
