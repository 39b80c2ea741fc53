import crypto from 'node:crypto';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';
import { registerAssignmentRoutes } from '../assignment/routes.ts';
import { registerAuthRoutes } from '../auth/routes.ts';
import { registerClientUpdateRoutes } from '../client-updates/routes.ts';
import { auditOf } from '../audit/audit-binding.ts';
import type { Database } from '../db/schema.ts';
import { documentKeysOf, masterKeyOf } from '../documents/document-crypto.ts';
import { registerDocumentRoutes } from '../documents/routes.ts';
import { registerEntityRoutes } from '../entities/routes.ts';
import type { Config } from '../env.ts';
import { registerNoteRoutes } from '../notes/routes.ts';

/**
 * The gateway serves the same API as the embedded server, so its OpenAPI document is built from the
 * same route declarations: they are declared once on a throwaway instance that never listens,
 * over an empty in-memory database that is never queried.
 */
export async function declareApiRoutesForDocument(config: Config): Promise<void> {
  const sqlite = new SQLite(':memory:');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const services = {
    config: { ...config, smtpUrl: undefined },
    db,
    signingKey: crypto.randomBytes(32),
    documentKeys: documentKeysOf(masterKeyOf(crypto.randomBytes(32), 'a throwaway key')),
    now: () => new Date(),
  };
  const declarations = Fastify({ logger: false });
  try {
    await declarations.register(
      (api, _options, done) => {
        registerAuthRoutes(api, services);
        done();
      },
      { prefix: '/api' },
    );
    await declarations.register(
      (v2, _options, done) => {
        registerEntityRoutes(v2, services);
        registerDocumentRoutes(v2, services);
        registerClientUpdateRoutes(v2, services);
        // The gateway keeps notes itself (local-notes.ts); decisions it does not offer.
        registerNoteRoutes(v2, services, auditOf);
        registerAssignmentRoutes(v2, services);
        done();
      },
      { prefix: '/api/v2' },
    );
    await declarations.ready();
  } finally {
    await declarations.close();
    await db.destroy();
  }
}
