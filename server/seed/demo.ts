import type { AppServices } from '../services.ts';

/** STUB (owned by the seed work): on an empty database, loads demo data and a demo account. */
export function ensureDemoData(
  _services: AppServices,
): Promise<{ username: string; password: string } | null> {
  return Promise.resolve(null);
}
