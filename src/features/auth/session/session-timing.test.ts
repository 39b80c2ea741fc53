import {
  EXPIRY_NOTICE_MS,
  expiryPhase,
  REVALIDATE_EVERY_MS,
  shouldRevalidateOnTick,
  TICK_MS,
  WAKE_GAP_MS,
} from './session-timing.ts';

const now = 1_800_000_000_000;

test('the session is active until two minutes before expiry, then ending soon, then expired', () => {
  expect(expiryPhase(now + EXPIRY_NOTICE_MS + 1, now)).toBe('active');
  expect(expiryPhase(now + EXPIRY_NOTICE_MS, now)).toBe('ending-soon');
  expect(expiryPhase(now + 1, now)).toBe('ending-soon');
  expect(expiryPhase(now, now)).toBe('expired');
  expect(expiryPhase(now - 60_000, now)).toBe('expired');
});

test('a regular tick revalidates once a minute has passed since the last check', () => {
  expect(shouldRevalidateOnTick(now, now - TICK_MS, now - REVALIDATE_EVERY_MS + 1)).toBe(false);
  expect(shouldRevalidateOnTick(now, now - TICK_MS, now - REVALIDATE_EVERY_MS)).toBe(true);
});

test('a long gap between ticks means the computer slept: revalidate at once', () => {
  const lastValidation = now - 1_000;
  expect(shouldRevalidateOnTick(now, now - TICK_MS - WAKE_GAP_MS, lastValidation)).toBe(false);
  expect(shouldRevalidateOnTick(now, now - TICK_MS - WAKE_GAP_MS - 1, lastValidation)).toBe(true);
});
