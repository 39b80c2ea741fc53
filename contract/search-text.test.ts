import { foldCase, foldForSearch, normalisedRegistrationNumber } from './search-text.ts';

describe('foldForSearch', () => {
  it.each([
    // NFKC and full case folding (Python's str.casefold() after NFKC), then accents removed.
    ['ÉCOLE ÖSTERREICH', 'ecole osterreich'],
    ['E\u0301COLE', 'ecole'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['\u1E9E', 'ss'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['Ωμέγα', 'ωμεγα'],
    ['\u1FBC', 'αι'],
    ['\u1FB7', 'αι'],
    ['\u0390', 'ι'],
    ['\u1C80', 'в'],
    ['ПРИВЕТ', 'привет'],
    ['Ёлка', 'елка'],
    ['\u01F0', 'j'],
    ['J\u030C', 'j'],
    ['İstanbul', 'istanbul'],
    ['ısparta', 'isparta'],
    ['ISPARTA', 'isparta'],
    ['\u212A', 'k'],
    ['\uFB01nance', 'finance'],
    ['ＡＢＣ１', 'abc1'],
    ['\u0149', "'n"],
    ['ǅ', 'dz'],
    ['µ', 'μ'],
    ['ſ', 's'],
    // Accents, cedillas, ogoneks, rings, carons, tildes.
    ['Étoile', 'etoile'],
    ['SÃO JORGE', 'sao jorge'],
    ['González', 'gonzalez'],
    ['Cantábrica', 'cantabrica'],
    ['Świt', 'swit'],
    ['Żuraw Ąę Çç Åå Ňň Ññ', 'zuraw ae cc aa nn nn'],
    ['Ǿ', 'o'],
    // Letters NFD leaves whole, and their capitals.
    ['æ Æ', 'ae ae'],
    ['œ Œ', 'oe oe'],
    ['ø Ø', 'o o'],
    ['ł Ł Łódzka', 'l l lodzka'],
    ['đ Đ', 'd d'],
    ['ı I', 'i i'],
    ['þ Þ', 'th th'],
    ['ß ẞ', 'ss ss'],
    ['Ærø Þórsdóttir Đorđević Wałęsa', 'aero thorsdottir dordevic walesa'],
    // Typographic apostrophes, quotes and dashes as ASCII.
    ['O’Connor', "o'connor"],
    ['O‘Connor ‚x‛', "o'connor 'x'"],
    ['Oʼ′', "o''"],
    ['“Acme” „Acme‟', '"acme" "acme"'],
    ['a‐b‑c‒d–e—f−g', 'a-b-c-d-e-f-g'],
    // Hangul stays composed; spacing vowel signs stay.
    ['한국', '한국'],
    ['\u1112\u1161\u11AB', '한'],
    ['राम', 'राम'],
  ])('folds %j to %j', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('gives upper- and lower-case, accented and unaccented spellings one form', () => {
    for (const name of ['Großhandel Süd', 'Ωμέγα Ναυτιλιακή', 'Общество Ёлка', 'Ærø Fjällräven']) {
      expect(foldForSearch(name.toUpperCase())).toBe(foldForSearch(name));
      expect(foldForSearch(name.toLowerCase())).toBe(foldForSearch(name));
      expect(foldForSearch(name.normalize('NFD'))).toBe(foldForSearch(name));
      expect(foldForSearch(foldForSearch(name))).toBe(foldForSearch(name));
    }
  });
});

describe('foldCase', () => {
  it('folds case and keeps accents', () => {
    expect(foldCase('ÉCOLE Straße')).toBe('école strasse');
    expect(foldCase('O’Connor')).toBe('o’connor');
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
    ['ÉTOILE-1', 'étoile1'],
    [' - ./ ', ''],
  ])('normalises %j to %j', (text, normalised) => {
    expect(normalisedRegistrationNumber(text)).toBe(normalised);
  });
});
