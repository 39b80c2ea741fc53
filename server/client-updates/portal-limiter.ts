/** Calls a portal link and an address may make per window (decisions.md: per token and per address). */
export const PORTAL_LIMITS = {
  windowMs: 10 * 60_000,
  perToken: 20,
  perAddress: 60,
} as const;

/**
 * Fixed windows in memory: the portal is one process's public door, and a restart forgetting the
 * counts only gives a guesser a fresh 60 tries against 2^256 tokens.
 */
export function portalLimiter(now: () => Date, limits = PORTAL_LIMITS) {
  const windows = new Map<string, { start: number; count: number }>();

  function take(key: string, max: number, at: number): number | undefined {
    const window = windows.get(key);
    if (!window || at - window.start >= limits.windowMs) {
      windows.set(key, { start: at, count: 1 });
      return undefined;
    }
    window.count += 1;
    return window.count > max ? Math.ceil((window.start + limits.windowMs - at) / 1000) : undefined;
  }

  return {
    /** Counts one call; the seconds to wait when over either limit, else undefined. */
    hit(tokenKey: string, address: string): number | undefined {
      const at = now().getTime();
      if (windows.size > 100_000) {
        for (const [key, window] of windows) {
          if (at - window.start >= limits.windowMs) windows.delete(key);
        }
      }
      const byAddress = take(`address:${address}`, limits.perAddress, at);
      const byToken = take(`token:${tokenKey}`, limits.perToken, at);
      return byAddress ?? byToken;
    },
  };
}
