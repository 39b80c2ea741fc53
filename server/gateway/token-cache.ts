import crypto from 'node:crypto';

export const TOKEN_CACHE_TTL_MS = 30_000;
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/**
 * Tokens the upstream recently confirmed as valid, keyed by their SHA-256 so the tokens themselves
 * are never kept; each entry lives at most 30 s and never past the token's own expiry.
 */
export class ValidTokenCache {
  private readonly validUntil = new Map<string, number>();

  constructor(
    private readonly now: () => Date,
    private readonly ttlMs = TOKEN_CACHE_TTL_MS,
    private readonly maxEntries = TOKEN_CACHE_MAX_ENTRIES,
  ) {}

  has(token: string): boolean {
    const key = keyOf(token);
    const until = this.validUntil.get(key);
    if (until === undefined) return false;
    if (until > this.now().getTime()) return true;
    this.validUntil.delete(key);
    return false;
  }

  remember(token: string, expiresAtMs: number | undefined): void {
    const nowMs = this.now().getTime();
    const until = Math.min(nowMs + this.ttlMs, expiresAtMs ?? Number.POSITIVE_INFINITY);
    if (until <= nowMs) return;
    const key = keyOf(token);
    this.validUntil.delete(key);
    this.validUntil.set(key, until);
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

function keyOf(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
