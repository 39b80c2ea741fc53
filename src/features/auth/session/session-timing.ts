/** How often the monitor looks at the clock. */
export const TICK_MS = 10_000;
/** How often the token is checked with the server while the page is open. */
export const REVALIDATE_EVERY_MS = 60_000;
/** A gap this much longer than a tick means timers were suspended: the computer slept. */
export const WAKE_GAP_MS = 30_000;
/** The "session ends soon" notice shows this long before expiry. */
export const EXPIRY_NOTICE_MS = 2 * 60_000;

export type ExpiryPhase = 'active' | 'ending-soon' | 'expired';

export function expiryPhase(expiresAt: number, now: number): ExpiryPhase {
  const remaining = expiresAt - now;
  if (remaining <= 0) return 'expired';
  return remaining <= EXPIRY_NOTICE_MS ? 'ending-soon' : 'active';
}

/** Whether a timer tick should ask the server about the token. */
export function shouldRevalidateOnTick(
  now: number,
  previousTick: number,
  lastValidation: number,
): boolean {
  const wokeUp = now - previousTick > TICK_MS + WAKE_GAP_MS;
  return wokeUp || now - lastValidation >= REVALIDATE_EVERY_MS;
}
