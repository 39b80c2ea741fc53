import { describe, expect, it } from 'vitest';
import { TOKEN_CACHE_TTL_MS, ValidTokenCache } from './token-cache.ts';

const reviewer = { username: 'alice', bound: true };

describe('ValidTokenCache', () => {
  it('names a confirmed token for 30 s at most, then asks for a new confirmation', () => {
    let nowMs = 1_000_000;
    const cache = new ValidTokenCache(() => new Date(nowMs));
    cache.remember('hash-a', undefined, reviewer);
    nowMs += TOKEN_CACHE_TTL_MS - 1;
    expect(cache.holderOf('hash-a')).toEqual(reviewer);
    nowMs += 1;
    expect(cache.holderOf('hash-a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never keeps a token past its own expiry, and forgets one already expired', () => {
    let nowMs = 1_000_000;
    const cache = new ValidTokenCache(() => new Date(nowMs));
    cache.remember('hash-a', nowMs + 5_000, reviewer);
    cache.remember('hash-b', nowMs, { username: 'session-abc', bound: false });
    expect(cache.holderOf('hash-b')).toBeUndefined();
    nowMs += 5_000;
    expect(cache.holderOf('hash-a')).toBeUndefined();
  });

  it('holds at most its limit, dropping the oldest confirmation first', () => {
    const cache = new ValidTokenCache(() => new Date(1_000_000), TOKEN_CACHE_TTL_MS, 2);
    cache.remember('hash-a', undefined, reviewer);
    cache.remember('hash-b', undefined, { username: 'bob', bound: true });
    cache.remember('hash-c', undefined, { username: 'carol', bound: true });
    expect(cache.size).toBe(2);
    expect(cache.holderOf('hash-a')).toBeUndefined();
    expect(cache.holderOf('hash-c')).toEqual({ username: 'carol', bound: true });
  });
});
