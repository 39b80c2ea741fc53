import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tokenResponseSchema, tokenValidResponseSchema } from '../../contract/auth.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { disableAccountCommand } from '../admin/account-commands.ts';
import { createAccount } from './accounts.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

type Encoding = 'multipart' | 'urlencoded';

function signIn(
  server: TestServer,
  fields: Record<string, string>,
  encoding: Encoding = 'urlencoded',
) {
  const body =
    encoding === 'multipart'
      ? Object.entries(fields).reduce((form, [name, value]) => {
          form.append(name, value);
          return form;
        }, new FormData())
      : new URLSearchParams(fields);
  return server.request('/api/gettoken', { method: 'POST', body, auth: 'none' });
}

function tokenValid(server: TestServer, token: string | undefined) {
  return server.request('/api/tokenvalid', {
    auth: 'none',
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
}

describe('POST /api/gettoken and GET /api/tokenvalid', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TOKEN_TTL_SECONDS: '90' } });
  });
  afterAll(async () => {
    await server.close();
  });

  test.each<Encoding>(['multipart', 'urlencoded'])(
    'signs in with %s fields and issues an HS256 JWT with sub, name, iat, exp and jti',
    async (encoding) => {
      const before = Math.floor(Date.now() / 1000);
      const response = await signIn(
        server,
        { Username: server.account.username, Password: server.account.password },
        encoding,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = tokenResponseSchema.parse(response.body);
      expect(Object.keys(response.body as object).sort()).toEqual(['expiresAt', 'token']);

      const claims = decodeJwt(body.token);
      expect(decodeProtectedHeader(body.token).alg).toBe('HS256');
      const account = await server.app.services.db
        .selectFrom('accounts')
        .selectAll()
        .where('username', '=', server.account.username)
        .executeTakeFirstOrThrow();
      expect(claims.sub).toBe(account.id);
      expect(claims.name).toBe(account.display_name);
      expect(typeof claims.jti).toBe('string');
      expect(claims.iat).toBeGreaterThanOrEqual(before);
      expect(claims.exp).toBe((claims.iat ?? 0) + 90);
      expect(body.expiresAt).toBe(new Date((claims.exp ?? 0) * 1000).toISOString());
    },
  );

  test('accepts lower-case field names and a username in another case', async () => {
    const response = await signIn(
      server,
      { username: server.account.username.toUpperCase(), password: server.account.password },
      'multipart',
    );
    expect(response.status).toBe(200);
    tokenResponseSchema.parse(response.body);
  });

  test.each([
    ['Username', { Password: 'whatever' }],
    ['Password', { Username: 'someone' }],
  ])('a missing %s is a 400 naming it', async (field, fields) => {
    const response = await signIn(server, fields);
    expect(response.status).toBe(400);
    const body = errorEnvelopeSchema.parse(response.body);
    expect(body.code).toBe(400);
    expect(body.message).toContain(field);
    expect(body.errors?.map((error) => error.field)).toEqual([field]);
  });

  test.each([
    ['a JSON body', 'application/json', JSON.stringify({ Username: 'a', Password: 'b' })],
    ['a malformed JSON body', 'application/json', '{"Username":'],
    ['a plain-text body', 'text/plain', 'Username=a&Password=b'],
  ])('%s is refused with 415', async (_what, contentType, body) => {
    const response = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      headers: { 'Content-Type': contentType },
      body,
    });
    expect(response.status).toBe(415);
    expect(errorEnvelopeSchema.parse(response.body).code).toBe(415);
  });

  test('no body at all is refused with 415', async () => {
    const response = await server.request('/api/gettoken', { method: 'POST', auth: 'none' });
    expect(response.status).toBe(415);
    errorEnvelopeSchema.parse(response.body);
  });

  test('a wrong password, an unknown user and a disabled account get the same 401', async () => {
    const disabled = await createAccount(server.app.services.db, 'gone-reviewer');
    await disableAccountCommand(server.app.services.db, 'gone-reviewer');

    const attempts = [
      { Username: server.account.username, Password: `${server.account.password}x` },
      { Username: 'nobody-by-this-name', Password: server.account.password },
      { Username: disabled.username, Password: disabled.password },
    ];
    const messages = [];
    for (const fields of attempts) {
      const response = await signIn(server, fields);
      expect(response.status).toBe(401);
      const body = errorEnvelopeSchema.parse(response.body);
      expect(body.code).toBe(401);
      messages.push(body.message);
    }
    expect(new Set(messages).size).toBe(1);
  });

  test('tokenvalid answers 200 with the expiry for a token from gettoken', async () => {
    const signedIn = tokenResponseSchema.parse(
      (
        await signIn(server, {
          Username: server.account.username,
          Password: server.account.password,
        })
      ).body,
    );
    const response = await tokenValid(server, signedIn.token);
    expect(response.status).toBe(200);
    expect(tokenValidResponseSchema.parse(response.body)).toEqual({
      isTokenValid: true,
      expiresAt: signedIn.expiresAt,
    });
  });

  test.each([
    ['no Authorization header', undefined],
    ['a token that is not a JWT', 'not-a-jwt'],
  ])('tokenvalid answers 401 for %s', async (_what, token) => {
    const response = await tokenValid(server, token);
    expect(response.status).toBe(401);
    expect(errorEnvelopeSchema.parse(response.body).code).toBe(401);
  });

  test('the OpenAPI document describes both routes', async () => {
    const response = await server.request('/api/openapi.json', { auth: 'none' });
    const paths = (response.body as { paths: Record<string, Record<string, unknown>> }).paths;
    const getToken = paths['/api/gettoken']?.post as { requestBody: { content: object } };
    expect(Object.keys(getToken.requestBody.content).sort()).toEqual([
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(paths['/api/tokenvalid']?.get).toBeDefined();
  });
});

describe('failed sign-in limits', () => {
  let clock: Date;
  let server: TestServer;
  beforeAll(async () => {
    clock = new Date();
    server = await startTestServer({ now: () => clock });
  });
  afterAll(async () => {
    await server.close();
  });
  const minutes = (count: number) => count * 60_000;
  const moveClock = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  async function newAccount(username: string) {
    return createAccount(server.app.services.db, username);
  }

  async function expectLocked(fields: Record<string, string>, retryAfterSeconds: number) {
    const response = await signIn(server, fields);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(String(retryAfterSeconds));
    const body = errorEnvelopeSchema.parse(response.body);
    expect(body.code).toBe(429);
    expect(body.message).toContain(`${retryAfterSeconds} seconds`);
  }

  test('five failures lock the username, even for the right password, until they age out', async () => {
    const account = await newAccount('locked-reviewer');
    const right = { Username: account.username, Password: account.password };
    const wrong = { Username: account.username, Password: 'not-the-password' };

    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(server, wrong)).status).toBe(401);
      moveClock(minutes(1));
    }
    // Oldest failure was 5 minutes ago: it leaves the 15-minute window in 10 minutes.
    await expectLocked(right, 600);
    await expectLocked({ ...right, Username: account.username.toUpperCase() }, 600);

    moveClock(minutes(10) - 1000);
    await expectLocked(right, 1);

    moveClock(1000);
    const response = await signIn(server, right);
    expect(response.status).toBe(200);
    tokenResponseSchema.parse(response.body);
  });

  test('a correct password is not counted, but does not give guessers fresh tries either', async () => {
    const account = await newAccount('forgetful-reviewer');
    const right = { Username: account.username, Password: account.password };
    const wrong = { Username: account.username, Password: 'not-the-password' };

    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await signIn(server, wrong)).status).toBe(401);
    }
    expect((await signIn(server, right)).status).toBe(200);
    expect((await signIn(server, wrong)).status).toBe(401);
    // Five failures in the window: clients without this account's device cookie wait.
    await expectLocked(right, 900);
    moveClock(minutes(16));
  });

  test('unknown usernames are counted and locked like real ones', async () => {
    const unknown = { Username: 'ghost-reviewer', Password: 'guess' };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(server, unknown)).status).toBe(401);
    }
    await expectLocked(unknown, 900);
    moveClock(minutes(16));
  });

  test('parallel guesses cannot get past the limit', async () => {
    const account = await newAccount('raced-reviewer');
    const wrong = { Username: account.username, Password: 'not-the-password' };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () => signIn(server, wrong).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    moveClock(minutes(16));
  });

  test('twenty failures from one address lock that address for every username', async () => {
    const account = await newAccount('bystander-reviewer');
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await signIn(server, { Username: `sprayed-${attempt}`, Password: 'guess' });
      expect(response.status).toBe(401);
    }
    await expectLocked({ Username: account.username, Password: account.password }, 900);

    moveClock(minutes(15));
    expect(
      (await signIn(server, { Username: account.username, Password: account.password })).status,
    ).toBe(200);
  });
});
