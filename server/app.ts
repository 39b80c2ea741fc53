import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { createAuditTrail } from './audit/audit-trail.ts';
import { auditPlugin } from './audit/routes.ts';
import { scheduleAuditRetention } from './audit/retention.ts';
import { authPlugin } from './auth/routes.ts';
import { callerOf } from './auth/caller.ts';
import { capabilitiesPlugin } from './capabilities/routes.ts';
import { authenticateCaller } from './auth/authenticate.ts';
import { loadSigningKey } from './auth/signing-key.ts';
import { clientUpdatesPlugin } from './client-updates/routes.ts';
import { clientUpdateService } from './client-updates/service.ts';
import { registerPortalRoutes } from './client-updates/portal-routes.ts';
import { assignmentPlugin } from './assignment/routes.ts';
import { decisionsPlugin } from './decisions/routes.ts';
import { openDatabase } from './db/database.ts';
import { createDatabaseHealth } from './db/database-faults.ts';
import { loadDocumentKeys, prepareDocumentKeys } from './documents/document-keys.ts';
import { documentsPlugin } from './documents/routes.ts';
import { rebuildDerivedData } from './entities/read-model/derived-data.ts';
import { foldEntityIndexCounts } from './entity-index/service.ts';
import { entityDerivedData } from './entities/read-model/derived-data-repository.ts';
import { entitiesPlugin } from './entities/routes.ts';
import { localEntitySource } from './entities/entity-source.ts';
import { keepNamesInListOrder } from './entities/read-model/search.ts';
import type { Config } from './env.ts';
import { registerGateway } from './gateway/routes.ts';
import { installCompression } from './http/compression.ts';
import { installAllowedMethods } from './http/allowed-methods.ts';
import { v2TargetOf } from './gateway/forward-target.ts';
import { answerFrameworkError, installErrorHandling, sendPathNotFound } from './http/errors.ts';
import { registerHealthRoute } from './http/healthz.ts';
import { installRequestLimits, serverLimitOptions } from './http/limits.ts';
import { installUtf8JsonParser } from './http/json-parser.ts';
import { loggerOptionsOf, type LogDestination } from './http/logging.ts';
import { readMultipartFields } from './http/multipart-body.ts';
import { openApiOptions, registerOpenApiRoutes } from './http/openapi.ts';
import { notesPlugin } from './notes/routes.ts';
import { createMailer } from './mail/mailer.ts';
import { SECURITY_HEADERS, installCors, installSecurityHeaders } from './http/security.ts';
import { reviewsPlugin } from './reviews/routes.ts';
import { statsPlugin } from './stats/routes.ts';
import { entityIndexPlugin } from './entity-index/routes.ts';
import type { AppServices } from './services.ts';

export interface CreateAppOptions {
  /** Replaces the clock (tests of expiry and rate limits). */
  now?: () => Date;
  /** Pino logger options (always with redaction); tests pass `false` or a destination to read. */
  logger?: boolean | { level: string; destination?: LogDestination };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once on the root instance by createApp. */
    services: AppServices;
  }
}

export type App = FastifyInstance;

/** The gateway's allow-list, behind its one wildcard route, as methods of a path. */
function gatewayMethodsOf(pathname: string): string[] {
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
    (method) => v2TargetOf(method, pathname) !== undefined,
  );
}

/** Builds the whole server on its database (DATA_DIR or DATABASE_URL); listening is the caller's job. */
export async function createApp(config: Config, options: CreateAppOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : typeof options.logger === 'object'
          ? loggerOptionsOf(options.logger.level, options.logger.destination)
          : loggerOptionsOf(config.logLevel),
    bodyLimit: 1024 * 1024,
    // Audit events carry the request id: unique across restarts and instances, not a counter.
    genReqId: () => crypto.randomUUID(),
    ...serverLimitOptions,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // A path that is not valid percent-encoding (`/api/v2/%zz`) is answered before routing.
    frameworkErrors: (error, request, reply) => {
      // Answered before routing, where neither helmet's hook nor the no-store hook runs.
      reply.headers({ ...SECURITY_HEADERS, 'Cache-Control': 'no-store' });
      answerFrameworkError(error, request, reply);
    },
  });
  const health = createDatabaseHealth(app.log);
  installErrorHandling(app, health);
  installSecurityHeaders(app);
  await installCors(app, config.corsOrigins);
  installRequestLimits(app);
  installUtf8JsonParser(app);
  await installCompression(app);
  installAllowedMethods(app, config.upstream ? gatewayMethodsOf : undefined);
  // Before any route: the OpenAPI document is every route declared with defineRoute, in both modes.
  await app.register(fastifySwagger, openApiOptions());

  const { db, engine } = await openDatabase(
    config.dataDir,
    config.databaseUrl,
    (lost) => {
      app.log.warn(
        lost,
        'PostgreSQL closed a connection; its request fails alone and the pool opens a new one on demand.',
      );
    },
    health,
  );
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  for (const note of await rebuildDerivedData(db, entityDerivedData)) {
    app.log.info(
      { derivedData: note.derivedData, requestedBy: note.requestedBy, ...note.detail },
      note.message,
    );
  }
  await foldEntityIndexCounts(db);
  const now = options.now ?? (() => new Date());
  app.decorate('auditTrail', createAuditTrail(db, now));
  scheduleAuditRetention(app, db, config.auditRetentionDays, now);

  registerHealthRoute(app, db, engine, health, now, config.upstream ? 'gateway' : 'embedded');

  if (config.upstream) {
    // Gateway mode (docs/gateway.md): the API is forwarded to the identity service; the database
    // holds only what that service has no endpoints for (client-update configurations, history).
    await registerGateway(app, { ...config, upstream: config.upstream }, now, db);
    await serveConsole(app, config.staticDir);
    return app;
  }
  for (const kind of ['company', 'person'] as const) {
    const names = await keepNamesInListOrder(db, kind);
    if (names.renumbered) {
      app.log.info({ kind, late: names.late }, 'Names numbered in list order again for search.');
    }
  }
  const documentKeys = await (async () => {
    const keys = loadDocumentKeys(config, app.log);
    await prepareDocumentKeys(db, keys, app.log);
    return keys;
  })().catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  const services: AppServices = {
    config,
    db,
    signingKey: await loadSigningKey(config, db),
    documentKeys,
    now,
  };

  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 0, files: 0, fields: 20 } });
  app.addHook('preValidation', readMultipartFields);

  registerOpenApiRoutes(app);
  registerPortalRoutes(app, services);
  const entities = localEntitySource(db);

  await app.register(
    async (api) => {
      await api.register(authPlugin, { services });
      await api.register(async (authenticated) => {
        authenticated.addHook('onRequest', authenticateCaller(services));
        await authenticated.register(capabilitiesPlugin, {
          config,
          whoIs: (request) => {
            const { username, role } = callerOf(request);
            return Promise.resolve({ username, role });
          },
        });
      });
    },
    { prefix: '/api' },
  );
  await app.register(
    async (v2) => {
      v2.addHook('onRequest', authenticateCaller(services));
      // A 404 of its own makes unknown /api/v2 paths pass authentication first (401 before 404).
      v2.setNotFoundHandler(sendPathNotFound);
      await v2.register(entitiesPlugin, { services });
      await v2.register(documentsPlugin, { services });
      await v2.register(clientUpdatesPlugin, {
        entities,
        store: clientUpdateService(services, createMailer(config)),
        portal: config,
      });
      await v2.register(auditPlugin, { db });
      await v2.register(reviewsPlugin, { services });
      await v2.register(entityIndexPlugin, { services });
      await v2.register(assignmentPlugin, { services });
      await v2.register(statsPlugin, { services });
      await v2.register(decisionsPlugin, { services });
      await v2.register(notesPlugin, { entities, db, table: 'notes', now });
    },
    { prefix: '/api/v2' },
  );

  await serveConsole(app, config.staticDir);
  app.decorate('services', services);
  return app;
}

/**
 * Serves the built console when there is one: its files, and index.html for any other GET outside
 * the API (client-side routes). Everything else unknown is the 404 envelope.
 */
async function serveConsole(app: FastifyInstance, staticDir: string | undefined) {
  const hasConsole = staticDir !== undefined && fs.existsSync(path.join(staticDir, 'index.html'));
  if (hasConsole) {
    const hashedAssets = path.join(staticDir, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file (vite.config.ts): no compressing per request.
      preCompressed: true,
      setHeaders: (reply, file) => {
        // Vite names these by content hash: a cached copy can never be stale.
        if (file.startsWith(hashedAssets)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/') || pathname === '/healthz';
    if (hasConsole && request.method === 'GET' && !isApi && !path.extname(pathname)) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendPathNotFound(request, reply);
  });
}
