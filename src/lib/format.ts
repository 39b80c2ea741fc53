/** The one date helper: display and compare `YYYY-MM-DD` dates and ISO timestamps. */

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

function parseDate(value: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  // `dateReceived` is `YYYY-MM-DD HH:MM:SS` in UTC without a zone.
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value))
    return new Date(`${value.replace(' ', 'T')}Z`);
  return new Date(value);
}

/** `2026-03-01` → `1 Mar 2026`, timestamps with their time; anything unparsable as it is. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = parseDate(value);
  if (Number.isNaN(date.getTime())) return value;
  return (value.length === 10 ? dateFormat : dateTimeFormat).format(date);
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

const localDateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** An ISO timestamp in the reader's own locale and time zone (the audit trail); unparsable as it is. */
export function formatLocalDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : localDateTimeFormat.format(date);
}
