import { foldForSearch, normalisedRegistrationNumber } from './search-text.ts';

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

describe('normalisedRegistrationNumber', () => {
  it.each([
    ['ABC-x', 'abcx'],
    ['ABC x', 'abcx'],
    ['ABCx', 'abcx'],
    ['abc.x', 'abcx'],
    ['ABC/x', 'abcx'],
    ['CHE-123.456.789', 'che123456789'],
    ['2015/123456/07', '201512345607'],
    ['FN 123456\u00A0a', 'fn123456a'],
    ['HRB\u2013123\u2212Straße', 'hrb123strasse'],
    ['ＡＢＣ－１', 'abc1'],
    ['A_B#1', 'a_b#1'],
    [' - ./ ', ''],
  ])('normalises %j to %j', (text, normalised) => {
    expect(normalisedRegistrationNumber(text)).toBe(normalised);
  });
});
