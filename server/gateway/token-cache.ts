import crypto from 'node:crypto';

export const TOKEN_CACHE_TTL_MS = 30_000;
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/** The stored name of a token: its SHA-256, so neither memory nor the database holds a usable token. */
export function tokenHashOf(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * Tokens the upstream recently confirmed as valid, by tokenHashOf; each entry lives at most 30 s
 * and never past the token's own expiry.
 */
export class ValidTokenCache {
  private readonly validUntil = new Map<string, number>();

  constructor(
    private readonly now: () => Date,
    private readonly ttlMs = TOKEN_CACHE_TTL_MS,
    private readonly maxEntries = TOKEN_CACHE_MAX_ENTRIES,
  ) {}

  has(tokenHash: string): boolean {
    const until = this.validUntil.get(tokenHash);
    if (until === undefined) return false;
    if (until > this.now().getTime()) return true;
    this.validUntil.delete(tokenHash);
    return false;
  }

  remember(tokenHash: string, expiresAtMs: number | undefined): void {
    const nowMs = this.now().getTime();
    const until = Math.min(nowMs + this.ttlMs, expiresAtMs ?? Number.POSITIVE_INFINITY);
    if (until <= nowMs) return;
    this.validUntil.delete(tokenHash);
    this.validUntil.set(tokenHash, until);
    // Maps iterate in insertion order, so the first key is the oldest entry.
    for (const oldest of this.validUntil.keys()) {
      if (this.validUntil.size <= this.maxEntries) break;
      this.validUntil.delete(oldest);
    }
  }

  get size(): number {
    return this.validUntil.size;
  }
}
