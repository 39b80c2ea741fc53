import { describe, expect, test } from 'vitest';
import { FailureCounter } from './rate-limit.ts';

const limit = { maxFailures: 3, windowMs: 60_000 };

describe('FailureCounter', () => {
  test('locks at the limit until the oldest failure leaves the window', () => {
    const counter = new FailureCounter(limit);
    counter.record('alice', 0);
    counter.record('alice', 10_000);
    expect(counter.lockedForMs('alice', 20_000)).toBe(0);
    counter.record('alice', 20_000);
    expect(counter.lockedForMs('alice', 20_000)).toBe(40_000);
    expect(counter.lockedForMs('alice', 59_999)).toBe(1);
    expect(counter.lockedForMs('alice', 60_000)).toBe(0);
    expect(counter.lockedForMs('bob', 20_000)).toBe(0);
  });

  test('forgetOne takes back a single failure and clear takes back all', () => {
    const counter = new FailureCounter(limit);
    for (const at of [0, 1, 2]) counter.record('alice', at);
    counter.forgetOne('alice', 2);
    expect(counter.lockedForMs('alice', 3)).toBe(0);
    counter.record('alice', 3);
    expect(counter.lockedForMs('alice', 3)).toBeGreaterThan(0);
    counter.clear('alice');
    expect(counter.lockedForMs('alice', 3)).toBe(0);
    expect(counter.size).toBe(0);
  });

  test('memory stays bounded: stale keys go first, then the least recently failed', () => {
    const counter = new FailureCounter(limit, 100);
    for (let key = 0; key < 100; key += 1) counter.record(`old-${key}`, 0);
    expect(counter.size).toBe(100);
    // The old keys are past the window by now, so the sweep removes all of them.
    counter.record('new-0', 120_000);
    expect(counter.size).toBe(1);

    for (let key = 1; key <= 150; key += 1) counter.record(`new-${key}`, 120_000 + key);
    expect(counter.size).toBeLessThanOrEqual(100);
    for (const at of [120_151, 120_152]) counter.record('new-150', at);
    expect(counter.lockedForMs('new-150', 120_153)).toBeGreaterThan(0);
  });

  test('a key keeps at most maxFailures times however often it fails', () => {
    const counter = new FailureCounter(limit);
    for (let at = 0; at < 1000; at += 1) counter.record('alice', at);
    // Only the last three (997..999) remain, so the lock lifts when 997 leaves the window.
    expect(counter.lockedForMs('alice', 1000)).toBe(997 + 60_000 - 1000);
  });
});
