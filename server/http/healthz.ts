import type { FastifyInstance } from 'fastify';
import { healthRepository } from '../db/health-repository.ts';
import type { Db } from '../db/database.ts';
import {
  databaseFaultOf,
  RETRY_AFTER_SECONDS,
  type DatabaseHealth,
} from '../db/database-faults.ts';
import type { Engine } from '../db/engine.ts';
import { errorEnvelope, markServerErrorLogged } from './errors.ts';

/**
 * `GET /healthz` (docs/deployment.md#what-to-monitor), in both modes (the gateway's database holds
 * its notes and client updates): 200 `ok`; 200 `degraded` with the reason
 * while the storage is full (the database still answers, and every instance shares its storage);
 * 503 with Retry-After while the database does not answer. While either holds, the check also
 * makes one small write, so the state clears by itself once the fault ends, even with no traffic.
 */
export function registerHealthRoute(
  app: FastifyInstance,
  db: Db,
  engine: Engine,
  health: DatabaseHealth,
  now: () => Date,
  mode: 'embedded' | 'gateway',
): void {
  app.get('/healthz', async (request, reply) => {
    const repository = healthRepository(db);
    let unexplained: unknown;
    try {
      await repository.ping();
      const faults = health.current();
      if (faults.storageFull || faults.unavailable) await repository.probeWrite(now());
    } catch (error) {
      unexplained = error;
    }
    if (unexplained !== undefined && databaseFaultOf(unexplained) === undefined) {
      app.log.error({ err: unexplained }, 'health check failed');
      return reply.code(503).send({
        ...errorEnvelope(503, 'The database does not answer.'),
        mode,
        engine,
        database: 'down',
      });
    }
    const { unavailable, storageFull } = health.current();
    if (unavailable) {
      markServerErrorLogged(request);
      return reply
        .code(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send({
          ...errorEnvelope(503, 'The database does not answer.', undefined, {
            retryAfter: RETRY_AFTER_SECONDS,
          }),
          mode,
          engine,
          database: 'down',
          reason: 'database unavailable',
        });
    }
    if (storageFull) {
      return { status: 'degraded', reason: 'storage full', mode, engine, database: 'full' };
    }
    return { status: 'ok', mode, engine, database: 'ok' };
  });
}
