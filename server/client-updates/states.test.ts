import { linkExpiryOf, stateAt } from './states.ts';

describe('stateAt', () => {
  const expiresAt = linkExpiryOf('2026-03-01T10:00:00.000Z', 7);

  it('lapses a waiting request at its expiry, to the millisecond', () => {
    expect(expiresAt).toBe('2026-03-08T10:00:00.000Z');
    const before = new Date('2026-03-08T09:59:59.999Z');
    const at = new Date(expiresAt);
    expect(stateAt('sent', expiresAt, before)).toBe('sent');
    expect(stateAt('opened', expiresAt, before)).toBe('opened');
    expect(stateAt('sent', expiresAt, at)).toBe('expired');
    expect(stateAt('opened', expiresAt, at)).toBe('expired');
  });

  it('never lapses an answered, reviewed or failed request', () => {
    const later = new Date('2027-01-01T00:00:00.000Z');
    for (const state of ['submitted', 'reviewed', 'failed'] as const) {
      expect(stateAt(state, expiresAt, later)).toBe(state);
    }
    expect(stateAt('failed', null, later)).toBe('failed');
  });
});

describe('linkExpiryOf', () => {
  it('counts PORTAL_LINK_DAYS whole days from the sending', () => {
    expect(linkExpiryOf('2026-03-01T10:00:00.000Z', 1)).toBe('2026-03-02T10:00:00.000Z');
    expect(linkExpiryOf('2026-03-01T10:00:00.000Z', 30)).toBe('2026-03-31T10:00:00.000Z');
  });
});
