import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { auditRepository } from './repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the events older than the retention period. The anchor keeps the seq and hash of the
 * last one deleted, so verification starts from it and the rest still verifies; the database's
 * triggers refuse any other delete.
 */
export async function pruneAuditEvents(
  db: Db,
  retentionDays: number,
  now: Date,
): Promise<{ pruned: number; through: number | null }> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const repository = auditRepository(trx);
    const last = await repository.lastBefore(cutoff);
    if (!last) return { pruned: 0, through: null };
    // The anchor moves first: the delete trigger allows only events at or before it.
    await repository.setAnchor(last, now.toISOString(), 0);
    const pruned = await repository.deleteThrough(last.seq);
    await repository.setAnchor(last, now.toISOString(), pruned);
    return { pruned, through: last.seq };
  });
}

/** Prunes once at start and then daily; a failure is logged and tried again the next day. */
export function scheduleAuditRetention(
  app: FastifyInstance,
  db: Db,
  retentionDays: number,
  now: () => Date,
): void {
  const prune = async () => {
    try {
      const { pruned } = await pruneAuditEvents(db, retentionDays, now());
      if (pruned > 0) app.log.info({ pruned }, 'pruned audit events past retention');
    } catch (error) {
      app.log.error({ err: error }, 'audit retention failed');
    }
  };
  app.addHook('onReady', async () => {
    await prune();
  });
  const timer = setInterval(() => void prune(), DAY_MS);
  timer.unref();
  app.addHook('onClose', () => {
    clearInterval(timer);
  });
}
