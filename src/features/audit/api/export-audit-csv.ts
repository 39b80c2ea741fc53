import type { AuditFilter } from '../../../../contract/audit.ts';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveObjectUrl } from '../../../lib/save-file.ts';

/** The whole filtered log as CSV (every page: the server streams it). */
export function downloadAuditCsv(
  filter: AuditFilter,
  options: { signal?: AbortSignal; onProgress?: (loaded: number) => void } = {},
): Promise<Blob> {
  return apiDownload('/api/v2/audit-events', {
    query: { ...filter, format: 'csv' },
    accept: 'text/csv',
    signal: options.signal,
    onProgress: options.onProgress,
  });
}

/** `audit-log.csv`, or with the filtered days: `audit-log-2026-03-01-to-2026-03-31.csv`. */
export function exportFileName(filter: AuditFilter): string {
  const days = [filter.from ?? 'start', filter.to ?? 'now'];
  return filter.from || filter.to ? `audit-log-${days.join('-to-')}.csv` : 'audit-log.csv';
}

/** Hands a Blob to the browser as a download, then lets the memory go. */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  saveObjectUrl(objectUrl, fileName);
  // A click starts the download synchronously, but some browsers read the URL a moment later.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}
