import { withVisibleControls } from './visible-text.ts';

test.each([
  ['plain', 'plain'],
  ['Émile Zoë 李', 'Émile Zoë 李'],
  ['evil\r\nadmin', 'evil\\u000d\\u000aadmin'],
  ['\u001b[31mred\u0007', '\\u001b[31mred\\u0007'],
  ['tab\there', 'tab\\u0009here'],
  ['\u0085next line', '\\u0085next line'],
  ['invoice\u202Efdp.exe', 'invoice\\u202efdp.exe'],
  ['a\u2028b', 'a\\u2028b'],
  // Joiners belong to scripts and emoji: they stay.
  [
    '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
    '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
  ],
])('%j is shown as %j', (text, shown) => {
  expect(withVisibleControls(text)).toBe(shown);
});
