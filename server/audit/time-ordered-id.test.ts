import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedUuid } from './time-ordered-id.ts';

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID carrying the time it was made', () => {
    const at = Date.UTC(2026, 10, 25, 12, 34, 56, 789);
    const id = timeOrderedUuid(at);
    expect(z.uuidv7().safeParse(id).success).toBe(true);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts as text in the order of the times it was made, and differs within one millisecond', () => {
    const start = Date.UTC(2026, 0, 1);
    const times = Array.from({ length: 200 }, (_, index) => start + index * 997);
    const ids = times.map((time) => timeOrderedUuid(time));
    expect([...ids].sort()).toEqual(ids);
    const sameMillisecond = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(start)));
    expect(sameMillisecond.size).toBe(1000);
  });
});
