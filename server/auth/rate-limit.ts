/** At most `maxFailures` failures within any `windowMs`. */
export interface FailureLimit {
  maxFailures: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS = {
  perUsername: { maxFailures: 5, windowMs: 15 * 60_000 },
  perAddress: { maxFailures: 20, windowMs: 15 * 60_000 },
} as const satisfies Record<string, FailureLimit>;

/**
 * Sliding-window failure times per key, in this process's memory. Each key keeps at most
 * `maxFailures` times and at most `maxKeys` keys are kept, so memory stays bounded.
 */
export class FailureCounter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: FailureLimit,
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it is not locked. */
  lockedForMs(key: string, nowMs: number): number {
    const recent = this.recent(key, nowMs);
    const oldest = recent[0];
    if (oldest === undefined || recent.length < this.limit.maxFailures) return 0;
    return oldest + this.limit.windowMs - nowMs;
  }

  record(key: string, nowMs: number): void {
    const recent = [...this.recent(key, nowMs), nowMs].slice(-this.limit.maxFailures);
    // Re-inserting moves the key to the end, so eviction below drops the least recently failed.
    this.failures.delete(key);
    this.failures.set(key, recent);
    if (this.failures.size > this.maxKeys) this.prune(nowMs);
  }

  /** Takes back one failure recorded at `atMs` (an attempt that turned out to succeed). */
  forgetOne(key: string, atMs: number): void {
    const times = this.failures.get(key);
    const index = times?.lastIndexOf(atMs) ?? -1;
    if (!times || index < 0) return;
    times.splice(index, 1);
    if (times.length === 0) this.failures.delete(key);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  get size(): number {
    return this.failures.size;
  }

  private recent(key: string, nowMs: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const recent = times.filter((time) => time > nowMs - this.limit.windowMs);
    if (recent.length === 0) this.failures.delete(key);
    else if (recent.length !== times.length) this.failures.set(key, recent);
    return recent;
  }

  private prune(nowMs: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, nowMs);
    // Still full of live keys: drop the oldest tenth at once rather than one per call.
    const excess = this.failures.size - Math.floor(this.maxKeys * 0.9);
    if (excess <= 0) return;
    for (const key of [...this.failures.keys()].slice(0, excess)) this.failures.delete(key);
  }
}

/**
 * Failed sign-ins per username (case-insensitive) and per client address. An attempt counts as a
 * failure from the moment it starts, so parallel guesses cannot slip past the limit.
 */
export function signInThrottle(now: () => Date, limits: typeof SIGN_IN_LIMITS = SIGN_IN_LIMITS) {
  const byUsername = new FailureCounter(limits.perUsername);
  const byAddress = new FailureCounter(limits.perAddress);

  return {
    /**
     * Starts an attempt, counted as failed until `succeeded`; refused with the whole seconds to
     * wait while the username or the address is locked. Checking and counting happen together.
     */
    begin(username: string, address: string): SignInStart {
      const nowMs = now().getTime();
      const key = username.toLowerCase();
      const waitMs = Math.max(
        byUsername.lockedForMs(key, nowMs),
        byAddress.lockedForMs(address, nowMs),
      );
      if (waitMs > 0) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      byUsername.record(key, nowMs);
      byAddress.record(address, nowMs);
      return { allowed: true, attempt: { username: key, address, atMs: nowMs } };
    },

    /** A correct password clears the username's failures and takes back this attempt's count. */
    succeeded(attempt: SignInAttempt) {
      byUsername.clear(attempt.username);
      byAddress.forgetOne(attempt.address, attempt.atMs);
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;

export interface SignInAttempt {
  username: string;
  address: string;
  atMs: number;
}

export type SignInStart =
  { allowed: true; attempt: SignInAttempt } | { allowed: false; retryAfterSeconds: number };
