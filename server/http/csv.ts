import { withVisibleControls } from '../../contract/visible-text.ts';

/**
 * A CSV cell: hidden characters escaped visibly, quoted when needed, and a leading = + - @ made
 * inert for spreadsheets.
 * Hand-written on purpose: CSV libraries quote but leave formulas live, and this is a dozen lines.
 */
export function csvCell(value: unknown): string {
  const text = withVisibleControls(
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value),
  );
  const inert = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** One CSV line of `record`'s `columns`, CRLF-terminated. */
export function csvLine<K extends string>(
  columns: readonly K[],
  record: Partial<Record<K, unknown>>,
): string {
  return `${columns.map((column) => csvCell(record[column])).join(',')}\r\n`;
}
