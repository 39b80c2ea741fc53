import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/database.ts';
import { createVersionedCache } from '../../db/versioned-cache.ts';

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
 * Serialised success envelopes of read routes, valid until the entity data changes
 * (createVersionedCache); writes elsewhere (the audit trail every request appends to, sign-in
 * attempts) leave them alone.
 */
export function createResponseCache(db: Db, limits: ResponseCacheLimits = DEFAULT_LIMITS) {
  const cache = createVersionedCache<Buffer>(db, { ...limits, sizeOf: (body) => body.length });
  return {
    /**
     * The JSON body of the success envelope around `build()`'s data, from the cache when the
     * database has not changed since it was stored; errors thrown by `build` are not cached.
     * `build` gets the database version it answers for; data it returns as a Buffer is taken as JSON.
     * `versionAtStart`: the version read as the request began (createVersionedCache's `get`).
     */
    envelopeJson(
      key: string,
      build: (version: string) => Promise<unknown>,
      versionAtStart?: string,
    ): Promise<Buffer> {
      return cache.get(
        key,
        async (version) => {
          const data = await build(version);
          return Buffer.isBuffer(data)
            ? Buffer.concat([ENVELOPE_PREFIX, data, ENVELOPE_SUFFIX])
            : Buffer.from(JSON.stringify({ code: 200, status: 'success', message: '', data }));
        },
        versionAtStart,
      );
    },

    /** How many responses are held (for tests). */
    get size(): number {
      return cache.size;
    },
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;

/**
 * Sends a cached or freshly built 200 envelope; the route handler then returns nothing. The
 * version is the one read as the caller was identified, which spares the cache its own query.
 */
export async function sendCachedEnvelope(
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  build: (version: string) => Promise<unknown>,
): Promise<undefined> {
  const body = await cache.envelopeJson(key, build, reply.request.caller?.entityDataVersion);
  await reply.code(200).type('application/json; charset=utf-8').send(body);
  return undefined;
}
