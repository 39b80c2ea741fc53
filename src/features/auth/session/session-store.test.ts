import { fakeToken } from '../testing/fake-token.ts';
import {
  endSession,
  getSession,
  SESSION_STORAGE_KEY,
  sessionFromToken,
  startSession,
  updateSessionExpiry,
} from './session-store.ts';

afterEach(() => {
  endSession({ byUser: false });
  localStorage.clear();
});

const iat = 1_800_000_000;

test('takes the expiry from the JWT exp claim when the answer has no expiresAt', () => {
  const token = fakeToken({ sub: 'dana', name: 'Dana Reviewer', iat, exp: iat + 1200 });
  const session = sessionFromToken({ token }, 'dana', iat * 1000);
  expect(session.expiresAt).toBe((iat + 1200) * 1000);
  expect(new Date(session.expiresAt).toISOString()).toBe('2027-01-15T08:20:00.000Z');
});

test('prefers expiresAt from the answer over the exp claim', () => {
  const token = fakeToken({ sub: 'dana', iat, exp: iat + 1200 });
  const session = sessionFromToken(
    { token, expiresAt: '2027-01-15T08:10:00.000Z' },
    'dana',
    iat * 1000,
  );
  expect(new Date(session.expiresAt).toISOString()).toBe('2027-01-15T08:10:00.000Z');
});

test('shifts the expiry by the difference between this clock and the server clock', () => {
  const token = fakeToken({ sub: 'dana', iat, exp: iat + 1200 });
  const browserAhead = 5 * 60_000;
  const session = sessionFromToken({ token }, 'dana', iat * 1000 + browserAhead);
  expect(session.clockSkewMs).toBe(browserAhead);
  expect(session.expiresAt).toBe((iat + 1200) * 1000 + browserAhead);
});

test('falls back to twenty minutes when the token carries no expiry', () => {
  const session = sessionFromToken({ token: 'opaque-token' }, 'dana', 1_000_000);
  expect(session.expiresAt).toBe(1_000_000 + 20 * 60_000);
  expect(session.displayName).toBe('dana');
});

test('shows the name claim, else the subject, else the username typed', () => {
  expect(
    sessionFromToken({ token: fakeToken({ name: 'Zoë Ångström', sub: 'zoe' }) }, 'zoe', 0)
      .displayName,
  ).toBe('Zoë Ångström');
  expect(sessionFromToken({ token: fakeToken({ sub: 'zoe.a' }) }, 'zoe', 0).displayName).toBe(
    'zoe.a',
  );
  expect(sessionFromToken({ token: fakeToken({ name: 42 }) }, 'zoe', 0).displayName).toBe('zoe');
});

test('keeps the token in memory and sessionStorage, never localStorage, and forgets it on end', () => {
  const token = fakeToken({
    sub: 'dana',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 1200,
  });
  startSession({ token }, 'dana');
  expect(getSession()?.token).toBe(token);
  expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({
    token,
    username: 'dana',
  });
  expect(localStorage.length).toBe(0);

  endSession({ byUser: true });
  expect(getSession()).toBeNull();
  expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
});

test('follows the expiry /api/tokenvalid reports for the current token only', () => {
  const now = Math.floor(Date.now() / 1000);
  const token = fakeToken({ sub: 'dana', iat: now, exp: now + 1200 });
  const session = startSession({ token }, 'dana');
  const later = new Date((now + 1500) * 1000).toISOString();
  updateSessionExpiry('another-token', later);
  expect(getSession()?.expiresAt).toBe(session.expiresAt);
  updateSessionExpiry(token, later);
  expect(getSession()?.expiresAt).toBe((now + 1500) * 1000 + session.clockSkewMs);
});

describe('a reload', () => {
  afterEach(() => {
    vi.resetModules();
  });

  test('restores a stored session that has not expired', async () => {
    const token = fakeToken({ sub: 'dana' });
    const stored = {
      token,
      username: 'dana',
      displayName: 'Dana',
      expiresAt: Date.now() + 60_000,
      clockSkewMs: 0,
    };
    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(stored));
    vi.resetModules();
    const reloaded = await import('./session-store.ts');
    expect(reloaded.getSession()).toEqual(stored);
  });

  test('drops a stored session that expired while the tab was closed', async () => {
    const stored = {
      token: 'old',
      username: 'dana',
      displayName: 'Dana',
      expiresAt: Date.now() - 1,
      clockSkewMs: 0,
    };
    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(stored));
    vi.resetModules();
    const reloaded = await import('./session-store.ts');
    expect(reloaded.getSession()).toBeNull();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  test('ignores a stored value that is not a session', async () => {
    sessionStorage.setItem(SESSION_STORAGE_KEY, '{not json');
    vi.resetModules();
    const reloaded = await import('./session-store.ts');
    expect(reloaded.getSession()).toBeNull();
  });
});
