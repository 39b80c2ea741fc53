import crypto from 'node:crypto';

export const TOKEN_CACHE_TTL_MS = 30_000;
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/** The stored name of a token: its SHA-256, so neither memory nor the database holds a usable token. */
export function tokenHashOf(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Who a confirmed token names: the reviewer bound to it at sign-in, else its JWT's or a fingerprint. */
export interface TokenHolder {
  username: string;
  bound: boolean;
}

/**
 * Tokens the upstream recently confirmed as valid, by tokenHashOf, with whom they name (a binding
 * never changes for a token, so it is kept with the confirmation); each entry lives at most 30 s
 * and never past the token's own expiry.
 */
export class ValidTokenCache {
  private readonly entries = new Map<string, { until: number; holder: TokenHolder }>();

  constructor(
    private readonly now: () => Date,
    private readonly ttlMs = TOKEN_CACHE_TTL_MS,
    private readonly maxEntries = TOKEN_CACHE_MAX_ENTRIES,
  ) {}

  /** The holder of a token confirmed recently enough; undefined when it must be confirmed again. */
  holderOf(tokenHash: string): TokenHolder | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (entry.until > this.now().getTime()) return entry.holder;
    this.entries.delete(tokenHash);
    return undefined;
  }

  remember(tokenHash: string, expiresAtMs: number | undefined, holder: TokenHolder): void {
    const nowMs = this.now().getTime();
    const until = Math.min(nowMs + this.ttlMs, expiresAtMs ?? Number.POSITIVE_INFINITY);
    if (until <= nowMs) return;
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { until, holder });
    // Maps iterate in insertion order, so the first key is the oldest entry.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  /** Drops a token's confirmation (it was signed out), so it is asked about again. */
  forget(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  get size(): number {
    return this.entries.size;
  }
}
