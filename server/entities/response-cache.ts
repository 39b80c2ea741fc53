import type { FastifyReply } from 'fastify';
import { entityDataVersion } from '../db/change-counter.ts';
import type { Db } from '../db/database.ts';

export interface ResponseCacheLimits {
  entries: number;
  bytes: number;
}

// 10 MB holds about 70 full list pages (148 KB each with both flags); more only raises peak memory.
const DEFAULT_LIMITS: ResponseCacheLimits = { entries: 200, bytes: 10 * 1024 * 1024 };

/** The success envelope as JSON.stringify writes it, up to the data, and after it. */
const ENVELOPE_PREFIX = Buffer.from('{"code":200,"status":"success","message":"","data":');
const ENVELOPE_SUFFIX = Buffer.from('}');

/**
 * Serialised success envelopes of read routes, valid until the database changes: the change
 * counter every write to the entity tables bumps in its own transaction (migrations 0007 and
 * 0014), read on every request, so no process or instance answers from before another's write;
 * writes elsewhere (the audit trail every request appends to, sign-in attempts) leave it alone.
 * Least recently used entries go first past the limits.
 */
export function createResponseCache(db: Db, limits: ResponseCacheLimits = DEFAULT_LIMITS) {
  const entries = new Map<string, Buffer>();
  let cachedBytes = 0;
  let cachedVersion = '';

  function clear() {
    entries.clear();
    cachedBytes = 0;
  }

  function store(key: string, body: Buffer) {
    if (body.length > limits.bytes) return;
    entries.set(key, body);
    cachedBytes += body.length;
    for (const [oldestKey, oldest] of entries) {
      if (entries.size <= limits.entries && cachedBytes <= limits.bytes) break;
      entries.delete(oldestKey);
      cachedBytes -= oldest.length;
    }
  }

  return {
    /**
     * The JSON body of the success envelope around `build()`'s data, from the cache when the
     * database has not changed since it was stored; errors thrown by `build` are not cached.
     * `build` gets the database version it answers for; data it returns as a Buffer is taken as JSON.
     */
    async envelopeJson(key: string, build: (version: string) => Promise<unknown>): Promise<Buffer> {
      const version = await entityDataVersion(db);
      if (version !== cachedVersion) {
        clear();
        cachedVersion = version;
      }
      const hit = entries.get(key);
      if (hit) {
        // Re-inserted so that Map order is least recently used first.
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const data = await build(version);
      const body = Buffer.isBuffer(data)
        ? Buffer.concat([ENVELOPE_PREFIX, data, ENVELOPE_SUFFIX])
        : Buffer.from(JSON.stringify({ code: 200, status: 'success', message: '', data }));
      // A write between the reads above may have mixed two states: serve it once, keep none of it.
      if ((await entityDataVersion(db)) === version && cachedVersion === version) store(key, body);
      return body;
    },

    /** How many responses are held (for tests). */
    get size(): number {
      return entries.size;
    },
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;

/** Sends a cached or freshly built 200 envelope; the route handler then returns nothing. */
export async function sendCachedEnvelope(
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  build: (version: string) => Promise<unknown>,
): Promise<undefined> {
  const body = await cache.envelopeJson(key, build);
  await reply.code(200).type('application/json; charset=utf-8').send(body);
  return undefined;
}
