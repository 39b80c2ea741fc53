/**
 * Full case folding (Unicode CaseFolding.txt, status C and F) where it differs from toLowerCase()
 * after NFKC: sharp s, final sigma, the Greek iota subscript, the Cyrillic letter variants and the
 * folds that expand. Cherokee folds to its capitals where toLowerCase() goes to small letters: the
 * same strings compare equal either way, so it is left out.
 */
const FOLDS_BEYOND_LOWER_CASE: Readonly<Record<string, string>> = {
  '\u00DF': '\u0073\u0073',
  '\u01F0': '\u006A\u030C',
  '\u0345': '\u03B9',
  '\u0390': '\u03B9\u0308\u0301',
  '\u03B0': '\u03C5\u0308\u0301',
  '\u03C2': '\u03C3',
  '\u1C80': '\u0432',
  '\u1C81': '\u0434',
  '\u1C82': '\u043E',
  '\u1C83': '\u0441',
  '\u1C84': '\u0442',
  '\u1C85': '\u0442',
  '\u1C86': '\u044A',
  '\u1C87': '\u0463',
  '\u1C88': '\uA64B',
  '\u1E96': '\u0068\u0331',
  '\u1E97': '\u0074\u0308',
  '\u1E98': '\u0077\u030A',
  '\u1E99': '\u0079\u030A',
  '\u1F50': '\u03C5\u0313',
  '\u1F52': '\u03C5\u0313\u0300',
  '\u1F54': '\u03C5\u0313\u0301',
  '\u1F56': '\u03C5\u0313\u0342',
  '\u1F80': '\u1F00\u03B9',
  '\u1F81': '\u1F01\u03B9',
  '\u1F82': '\u1F02\u03B9',
  '\u1F83': '\u1F03\u03B9',
  '\u1F84': '\u1F04\u03B9',
  '\u1F85': '\u1F05\u03B9',
  '\u1F86': '\u1F06\u03B9',
  '\u1F87': '\u1F07\u03B9',
  '\u1F90': '\u1F20\u03B9',
  '\u1F91': '\u1F21\u03B9',
  '\u1F92': '\u1F22\u03B9',
  '\u1F93': '\u1F23\u03B9',
  '\u1F94': '\u1F24\u03B9',
  '\u1F95': '\u1F25\u03B9',
  '\u1F96': '\u1F26\u03B9',
  '\u1F97': '\u1F27\u03B9',
  '\u1FA0': '\u1F60\u03B9',
  '\u1FA1': '\u1F61\u03B9',
  '\u1FA2': '\u1F62\u03B9',
  '\u1FA3': '\u1F63\u03B9',
  '\u1FA4': '\u1F64\u03B9',
  '\u1FA5': '\u1F65\u03B9',
  '\u1FA6': '\u1F66\u03B9',
  '\u1FA7': '\u1F67\u03B9',
  '\u1FB2': '\u1F70\u03B9',
  '\u1FB3': '\u03B1\u03B9',
  '\u1FB4': '\u03AC\u03B9',
  '\u1FB6': '\u03B1\u0342',
  '\u1FB7': '\u03B1\u0342\u03B9',
  '\u1FC2': '\u1F74\u03B9',
  '\u1FC3': '\u03B7\u03B9',
  '\u1FC4': '\u03AE\u03B9',
  '\u1FC6': '\u03B7\u0342',
  '\u1FC7': '\u03B7\u0342\u03B9',
  '\u1FD2': '\u03B9\u0308\u0300',
  '\u1FD6': '\u03B9\u0342',
  '\u1FD7': '\u03B9\u0308\u0342',
  '\u1FE2': '\u03C5\u0308\u0300',
  '\u1FE4': '\u03C1\u0313',
  '\u1FE6': '\u03C5\u0342',
  '\u1FE7': '\u03C5\u0308\u0342',
  '\u1FF2': '\u1F7C\u03B9',
  '\u1FF3': '\u03C9\u03B9',
  '\u1FF4': '\u03CE\u03B9',
  '\u1FF6': '\u03C9\u0342',
  '\u1FF7': '\u03C9\u0342\u03B9',
};

/** NFKC, then full Unicode case folding: registration numbers compare this way (accents kept). */
export function foldCase(text: string): string {
  const lowered = text.normalize('NFKC').toLowerCase();
  return Array.from(lowered, (char) => FOLDS_BEYOND_LOWER_CASE[char] ?? char).join('');
}

/**
 * Letters that are not a base letter and a combining mark, so NFD leaves them whole, written as
 * their usual ASCII spelling (decisions.md, "Search ignores accents"); capitals are already folded.
 */
const LETTERS_WITHOUT_MARKS: Readonly<Record<string, string>> = {
  '\u00E6': 'ae',
  '\u0153': 'oe',
  '\u00F8': 'o',
  '\u0142': 'l',
  '\u0111': 'd',
  '\u0131': 'i',
  '\u00FE': 'th',
};

/** Typographic apostrophes, quotes and dashes, compared as the ASCII characters people type. */
const TYPOGRAPHIC_PUNCTUATION: Readonly<Record<string, string>> = {
  '\u2019': "'",
  '\u2018': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u02BC': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
};

/** Non-spacing marks (accents, cedillas, ogoneks...); spacing vowel signs of Indic scripts stay. */
const NON_SPACING_MARKS = /\p{Mn}/gu;

/**
 * Text as search compares it: NFKC, full Unicode case folding, accents removed (NFD, then every
 * non-spacing mark), `æ œ ø ł đ ı þ` as `ae oe o l d i th`, and typographic apostrophes, quotes and
 * dashes as ASCII; NFC again at the end (Hangul syllables recompose). So `ÉCOLE`, `école` and
 * `ecole` are equal, `STRASSE` finds `Straße`, `ΟΔΟΣ` finds `οδος`, `O’Connor` finds `O'Connor`.
 * Stored columns and queries both go through this one function.
 */
export function foldForSearch(text: string): string {
  const withoutMarks = foldCase(text).normalize('NFD').replace(NON_SPACING_MARKS, '');
  return Array.from(
    withoutMarks,
    (char) => LETTERS_WITHOUT_MARKS[char] ?? TYPOGRAPHIC_PUNCTUATION[char] ?? char,
  )
    .join('')
    .normalize('NFC');
}

/**
 * A registration number as duplicates and search compare it: case-folded (accents kept, as the
 * unique index has always compared them), without white space, dashes
 * (hyphen, en dash, minus sign, ...), dots and slashes, so `ABC-x`, `ABC x`, `abc.x` and `ABCx` are
 * one number.
 */
export function normalisedRegistrationNumber(text: string): string {
  return foldCase(text).replace(/[\s\p{Pd}\u2212./]/gu, '');
}
