/**
 * C0 and C1 controls, line and paragraph separators, and the bidirectional marks and overrides:
 * characters that move a terminal's cursor, split a CSV row, or make text read other than it is.
 */
const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text with every hidden character written as its escape (`\u001b`), so an exported or displayed
 * value shows what it holds: an auditor sees `evil\u000d\u000aadmin`, not a second line.
 */
export function withVisibleControls(text: string): string {
  return text.replace(
    HIDDEN_CHARACTERS,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
