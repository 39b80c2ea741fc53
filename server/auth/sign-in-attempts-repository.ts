import crypto from 'node:crypto';
import type { Db } from '../db/database.ts';

/** A limit an attempt counts against: at most `maxFailures` failures under `key` in the window. */
export interface LimitKey {
  key: string;
  maxFailures: number;
}

export type Reservation =
  | { outcome: 'reserved'; attemptId: string }
  /** Enough real failures under some key: refused until `retryAtMs`. */
  | { outcome: 'locked'; retryAtMs: number }
  /** Full only because of attempts still being checked: try again once they are decided. */
  | { outcome: 'busy' };

/** The only place with SQL for sign-in attempts (server/auth/sign-in-limiter.ts decides). */
export function signInAttemptsRepository(db: Db) {
  return {
    /**
     * Counts the window's attempts under each key and, when every key has room, records a pending
     * attempt under all of them, in one write transaction so that parallel attempts (in this
     * process or another) cannot all see the same free place. A pending attempt older than
     * `pendingCountsAsFailedBeforeMs` (its process died mid-check) counts as a failure.
     */
    reserve(
      keys: LimitKey[],
      window: { nowMs: number; windowMs: number; pendingCountsAsFailedBeforeMs: number },
    ): Promise<Reservation> {
      const since = window.nowMs - window.windowMs;
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sign_in_attempts').where('at_ms', '<=', since).execute();
        let retryAtMs = 0;
        let busy = false;
        for (const { key, maxFailures } of keys) {
          const rows = await trx
            .selectFrom('sign_in_attempts')
            .select(['at_ms', 'state'])
            .where('limit_key', '=', key)
            .where('at_ms', '>', since)
            .orderBy('at_ms', 'desc')
            .execute();
          const failedTimes = rows
            .filter(
              (row) => row.state === 'failed' || row.at_ms < window.pendingCountsAsFailedBeforeMs,
            )
            .map((row) => row.at_ms);
          const lockingFailure = failedTimes[maxFailures - 1];
          if (lockingFailure !== undefined) {
            // The lock lifts when the oldest of the newest `maxFailures` failures leaves the window.
            retryAtMs = Math.max(retryAtMs, lockingFailure + window.windowMs);
          } else if (rows.length >= maxFailures) {
            busy = true;
          }
        }
        if (retryAtMs > 0) return { outcome: 'locked', retryAtMs };
        if (busy) return { outcome: 'busy' };
        const attemptId = crypto.randomUUID();
        await trx
          .insertInto('sign_in_attempts')
          .values(
            keys.map(({ key }) => ({
              attempt_id: attemptId,
              limit_key: key,
              at_ms: window.nowMs,
              state: 'pending' as const,
            })),
          )
          .execute();
        return { outcome: 'reserved', attemptId };
      });
    },

    /** The password was wrong: the attempt stays, as a failure under each of its keys. */
    async markFailed(attemptId: string): Promise<void> {
      await db
        .updateTable('sign_in_attempts')
        .set({ state: 'failed' })
        .where('attempt_id', '=', attemptId)
        .execute();
    },

    /** The password was right: the attempt was no guess and leaves no trace. */
    async forget(attemptId: string): Promise<void> {
      await db.deleteFrom('sign_in_attempts').where('attempt_id', '=', attemptId).execute();
    },
  };
}

export type SignInAttemptsRepository = ReturnType<typeof signInAttemptsRepository>;
