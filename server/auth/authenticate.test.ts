import crypto from 'node:crypto';
import { decodeJwt, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tokenResponseSchema, tokenValidResponseSchema } from '../../contract/auth.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  disableAccountCommand,
  resetApiKeyCommand,
  resetPasswordCommand,
} from '../admin/account-commands.ts';
import { createAccount } from './accounts.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

/** No route will ever answer here: a 404 proves authentication passed, a 401 that it did not. */
const PROBE = '/api/v2/auth-probe-no-such-path';

let clock: Date;
let server: TestServer;
beforeAll(async () => {
  clock = new Date();
  server = await startTestServer({ now: () => clock });
});
afterAll(async () => {
  await server.close();
});

function withToken(path: string, token: string) {
  return server.request(path, { auth: 'none', headers: { Authorization: `Bearer ${token}` } });
}

function withApiKey(path: string, apiKey: string) {
  return server.request(path, { auth: 'none', headers: { 'X-API-Key': apiKey } });
}

async function signIn(username: string, password: string) {
  return server.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({ Username: username, Password: password }),
  });
}

/** 401 both at /api/tokenvalid and on an /api/v2 path, as the envelope. */
async function expectRejectedToken(token: string) {
  for (const response of [
    await withToken('/api/tokenvalid', token),
    await withToken('/api/v2/entities', token),
  ]) {
    expect(response.status).toBe(401);
    expect(errorEnvelopeSchema.parse(response.body).code).toBe(401);
  }
}

async function expectAcceptedToken(token: string) {
  expect(tokenValidResponseSchema.parse((await withToken('/api/tokenvalid', token)).body)).toEqual(
    expect.objectContaining({ isTokenValid: true }),
  );
  expect((await withToken(PROBE, token)).status).toBe(404);
}

describe('credentials on /api/v2', () => {
  test('neither a token nor an API key is a 401 envelope', async () => {
    const response = await server.request('/api/v2/entities', { auth: 'none' });
    expect(response.status).toBe(401);
    const body = errorEnvelopeSchema.parse(response.body);
    expect(body).toMatchObject({ code: 401, status: 'error', data: [] });
    expect(body.message).toMatch(/Bearer token or an X-API-Key/);
  });

  test('a valid API key passes authentication (404 for an unknown path, not 401)', async () => {
    const response = await withApiKey(PROBE, server.account.apiKey);
    expect(response.status).toBe(404);
    expect(errorEnvelopeSchema.parse(response.body).message).toContain(PROBE);
  });

  test.each([
    ['a made-up key', 'kyc_made-up'],
    ['a key with one character changed', 'CHANGE-LAST'],
  ])('%s is a 401 envelope', async (_what, apiKey) => {
    const key =
      apiKey === 'CHANGE-LAST'
        ? `${server.account.apiKey.slice(0, -1)}${server.account.apiKey.endsWith('A') ? 'B' : 'A'}`
        : apiKey;
    const response = await withApiKey(PROBE, key);
    expect(response.status).toBe(401);
    expect(errorEnvelopeSchema.parse(response.body).message).toBe('The API key is invalid.');
  });

  test('a valid Bearer token passes authentication', async () => {
    await expectAcceptedToken(await server.token());
  });
});

describe('forged and stale tokens', () => {
  let payload: JWTPayload;
  beforeAll(async () => {
    payload = decodeJwt(await server.token());
  });

  function signedWith(claims: JWTPayload, key: Uint8Array, alg = 'HS256') {
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
  }

  test('the same claims signed with the server key are accepted (control)', async () => {
    await expectAcceptedToken(await signedWith(payload, server.app.services.signingKey));
  });

  test('a token with one signature character changed is rejected', async () => {
    const token = await server.token();
    const [header, body, signature = ''] = token.split('.');
    const position = 10;
    const flipped = signature[position] === 'A' ? 'B' : 'A';
    const tampered = `${header}.${body}.${signature.slice(0, position)}${flipped}${signature.slice(position + 1)}`;
    expect(tampered).not.toBe(token);
    await expectAcceptedToken(token);
    await expectRejectedToken(tampered);
  });

  test('an unsigned token (alg: none) is rejected', async () => {
    await expectRejectedToken(new UnsecuredJWT(payload).encode());
  });

  test('a token signed with another key is rejected', async () => {
    await expectRejectedToken(await signedWith(payload, crypto.randomBytes(48)));
  });

  test('a token signed with the right key but HS512 is rejected', async () => {
    await expectRejectedToken(await signedWith(payload, server.app.services.signingKey, 'HS512'));
  });

  test('a token issued in the future is rejected', async () => {
    const iat = Math.floor(clock.getTime() / 1000) + 3600;
    await expectRejectedToken(
      await signedWith({ ...payload, iat, exp: iat + 1200 }, server.app.services.signingKey),
    );
  });

  test('a token expires after TOKEN_TTL_SECONDS', async () => {
    const signedIn = await signIn(server.account.username, server.account.password);
    const { token, expiresAt } = tokenResponseSchema.parse(signedIn.body);
    expect(Date.parse(expiresAt ?? '')).toBe(Math.floor(clock.getTime() / 1000) * 1000 + 1_200_000);

    const issuedAt = clock;
    clock = new Date(issuedAt.getTime() + 1_199_000);
    await expectAcceptedToken(token);
    clock = new Date(issuedAt.getTime() + 1_201_000);
    await expectRejectedToken(token);
    clock = issuedAt;
  });

  test('the session’s stored expiry counts too: a token whose exp outlives its session is rejected', async () => {
    const signedIn = await signIn(server.account.username, server.account.password);
    const claims = decodeJwt(tokenResponseSchema.parse(signedIn.body).token);
    const outliving = await signedWith(
      { ...claims, exp: (claims.exp ?? 0) + 3600 },
      server.app.services.signingKey,
    );
    const issuedAt = clock;
    try {
      clock = new Date(issuedAt.getTime() + 1_199_000);
      await expectAcceptedToken(outliving);
      clock = new Date(issuedAt.getTime() + 1_201_000);
      await expectRejectedToken(outliving);
    } finally {
      clock = issuedAt;
    }
  });
});

describe('operator actions take effect at once', () => {
  test('api-key:reset: the old key is refused at once, the new one works', async () => {
    const account = await createAccount(server.app.services.db, 'key-reset-reviewer');
    expect((await withApiKey(PROBE, account.apiKey)).status).toBe(404);

    const { apiKey } = await resetApiKeyCommand(server.app.services.db, account.username);
    expect(apiKey).not.toBe(account.apiKey);
    expect((await withApiKey(PROBE, account.apiKey)).status).toBe(401);
    expect((await withApiKey(PROBE, apiKey)).status).toBe(404);
  });

  test('account:reset-password: earlier tokens and the old password are refused', async () => {
    const account = await createAccount(server.app.services.db, 'password-reset-reviewer');
    const earlier = tokenResponseSchema.parse(
      (await signIn(account.username, account.password)).body,
    ).token;
    await expectAcceptedToken(earlier);

    const { password } = await resetPasswordCommand(server.app.services.db, account.username);
    await expectRejectedToken(earlier);
    expect((await signIn(account.username, account.password)).status).toBe(401);
    const fresh = await signIn(account.username, password);
    expect(fresh.status).toBe(200);
    await expectAcceptedToken(tokenResponseSchema.parse(fresh.body).token);
  });

  test('account:disable: its token and its API key are refused', async () => {
    const account = await createAccount(server.app.services.db, 'disabled-reviewer');
    const token = tokenResponseSchema.parse(
      (await signIn(account.username, account.password)).body,
    ).token;
    await expectAcceptedToken(token);
    expect((await withApiKey(PROBE, account.apiKey)).status).toBe(404);

    await disableAccountCommand(server.app.services.db, account.username);
    await expectRejectedToken(token);
    const keyResponse = await withApiKey(PROBE, account.apiKey);
    expect(keyResponse.status).toBe(401);
    errorEnvelopeSchema.parse(keyResponse.body);
  });
});
