import { entityDataVersion } from './change-counter.ts';
import type { Db } from './database.ts';

export interface VersionedCacheLimits<T> {
  entries: number;
  /** A bound on the sum of `sizeOf` over the kept values; none when absent. */
  bytes?: number;
  sizeOf?: (value: T) => number;
}

/**
 * Values derived from the entity tables, kept until they change: the change counter every write
 * to them bumps in its own transaction (migrations 0007 and 0014) is read on every call, so no
 * process or instance answers from before another's write. A value built across a write is
 * returned once and not kept. Past the limits the least recently used go first.
 */
export function createVersionedCache<T>(db: Db, limits: VersionedCacheLimits<T>) {
  const entries = new Map<string, T>();
  const sizeOf = limits.sizeOf ?? (() => 0);
  const maxBytes = limits.bytes ?? Number.POSITIVE_INFINITY;
  let keptVersion = '';
  let keptBytes = 0;

  function forget(key: string) {
    const old = entries.get(key);
    if (old === undefined) return;
    entries.delete(key);
    keptBytes -= sizeOf(old);
  }

  function store(key: string, value: T) {
    const size = sizeOf(value);
    if (size > maxBytes) return;
    forget(key);
    entries.set(key, value);
    keptBytes += size;
    // Maps iterate in insertion order, and a hit is inserted again: the first key is the least recent.
    for (const oldest of entries.keys()) {
      if (entries.size <= limits.entries && keptBytes <= maxBytes) break;
      forget(oldest);
    }
  }

  return {
    /**
     * The value kept for `key` at the current version, or `build`'s, kept when nothing changed
     * meanwhile. `versionAtStart`, read as the request began, stands for the current version
     * unless it is older than the kept one (then the version is read anew: the cache never goes back).
     */
    async get(
      key: string,
      build: (version: string) => Promise<T>,
      versionAtStart?: string,
    ): Promise<T> {
      const version =
        versionAtStart !== undefined && Number(versionAtStart) >= Number(keptVersion)
          ? versionAtStart
          : await entityDataVersion(db);
      if (version !== keptVersion) {
        entries.clear();
        keptBytes = 0;
        keptVersion = version;
      }
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const value = await build(version);
      if ((await entityDataVersion(db)) === version && keptVersion === version) store(key, value);
      return value;
    },

    /** How many values are kept (for tests). */
    get size(): number {
      return entries.size;
    },
  };
}

/** Pages of rows kept per query, at most 100 rows each: up to 200 pages and 5,000 rows. */
export function createPageCache<T extends { data: readonly unknown[] }>(db: Db) {
  return createVersionedCache<T>(db, {
    entries: 200,
    bytes: 5000,
    sizeOf: (page) => page.data.length,
  });
}
