/**
 * The one date helper: every date reads "25 Nov 2026" and every time "25 Nov 2026, 23:55 UTC",
 * whatever the browser's locale (day first, month as a word: never ambiguous).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parseDate(value: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  // `dateReceived` is `YYYY-MM-DD HH:MM:SS` in UTC without a zone.
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value))
    return new Date(`${value.replace(' ', 'T')}Z`);
  return new Date(value);
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

function dayMonthYear(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

function dayMonthYearTime(date: Date): string {
  return `${dayMonthYear(date)}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

/** `2026-03-01` → `1 Mar 2026`, timestamps with their time in UTC; anything unparsable as it is. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = parseDate(value);
  if (Number.isNaN(date.getTime())) return value;
  return value.length === 10 ? dayMonthYear(date) : dayMonthYearTime(date);
}

/** An instant as `25 Nov 2026, 23:55 UTC`, even when it falls on midnight; unparsable as it is. */
export function formatDateTime(value: string): string {
  const date = parseDate(value);
  return Number.isNaN(date.getTime()) ? value : dayMonthYearTime(date);
}

/** Whole days from today (UTC) to a `YYYY-MM-DD` date; negative when it is past. */
export function daysUntil(value: string, today: Date = new Date()): number {
  const target = Date.parse(`${value.slice(0, 10)}T00:00:00Z`);
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((target - start) / 86_400_000);
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** `GB` → `United Kingdom`, falling back to the code itself. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '—';
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * An account as people read it: "Rhea Reviewer (rhea)"; the username alone when the server holds
 * no other name (gateway mode, an account deleted since, or a name that is the username).
 */
export function formatAccount(username: string, displayName?: string | null): string {
  const name = displayName?.trim();
  return name && name !== username ? `${name} (${username})` : username;
}
