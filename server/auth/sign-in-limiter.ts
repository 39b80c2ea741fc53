import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import { signInAttemptsRepository, type LimitKey } from './sign-in-attempts-repository.ts';

/**
 * OWASP's device-cookie scheme: a browser that has signed in to an account before is counted on
 * its own (per device), so guesses from elsewhere cannot lock the owner out; every other attempt
 * is counted per account and per client address.
 * Hand-written on purpose: @fastify/rate-limit counts requests per key, not failed sign-ins per
 * account, address and device cookie kept in the database every instance shares.
 */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60_000,
  perAccount: 5,
  perAddress: 20,
  perDevice: 10,
  /** A pending attempt this old was cut off mid-check (a crash): it counts as a failure. */
  pendingTimeoutMs: 60_000,
  /** How long an attempt waits for others still being checked before it gives up with a 429. */
  busyWaitMs: 10_000,
  busyPollMs: 25,
} as const;

export type SignInLimits = typeof SIGN_IN_LIMITS;

export interface SignInClient {
  username: string;
  address: string;
  /** The nonce of a valid device cookie for this username; absent for an untrusted client. */
  deviceNonce: string | undefined;
}

export type SignInStart =
  { allowed: true; attemptId: string } | { allowed: false; retryAfterSeconds: number };

/** Failed sign-ins counted in the database, so every process and instance sees the same limits. */
export function signInLimiter(db: Db, now: () => Date, limits: SignInLimits = SIGN_IN_LIMITS) {
  const attempts = signInAttemptsRepository(db);

  function keysOf(client: SignInClient): LimitKey[] {
    if (client.deviceNonce !== undefined) {
      return [{ key: `device:${client.deviceNonce}`, maxFailures: limits.perDevice }];
    }
    return [
      { key: `account:${client.username.toLowerCase()}`, maxFailures: limits.perAccount },
      { key: `address:${client.address}`, maxFailures: limits.perAddress },
    ];
  }

  return {
    /**
     * Holds a place under the client's limits while its password is checked, or says how long it
     * must wait. A place held by an attempt still in progress is no failure: when only those fill
     * the limit, this waits for them to be decided rather than refusing.
     */
    async begin(client: SignInClient): Promise<SignInStart> {
      const keys = keysOf(client);
      const giveUpAt = Date.now() + limits.busyWaitMs;
      for (;;) {
        const nowMs = now().getTime();
        const reservation = await attempts.reserve(keys, {
          nowMs,
          windowMs: limits.windowMs,
          pendingCountsAsFailedBeforeMs: nowMs - limits.pendingTimeoutMs,
        });
        if (reservation.outcome === 'reserved') {
          return { allowed: true, attemptId: reservation.attemptId };
        }
        if (reservation.outcome === 'locked') {
          const waitMs = reservation.retryAtMs - nowMs;
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
        }
        if (Date.now() >= giveUpAt) return { allowed: false, retryAfterSeconds: 1 };
        await sleep(limits.busyPollMs);
      }
    },

    failed(attemptId: string): Promise<void> {
      return attempts.markFailed(attemptId);
    },

    succeeded(attemptId: string): Promise<void> {
      return attempts.forget(attemptId);
    },
  };
}

export type SignInLimiter = ReturnType<typeof signInLimiter>;
