import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { createApp } from '../app.ts';
import { loadConfig } from '../env.ts';
import { sendJson, startRecordingUpstream } from '../testing/recording-upstream.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { createAccount } from './accounts.ts';
import { deviceCookieName } from './device-cookie.ts';
import { SIGN_IN_LIMITS } from './sign-in-limiter.ts';

/** A browser: its own cookie jar, and the address the trusted proxy says it comes from. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly server: TestServer,
    readonly address: string,
  ) {}

  async signIn(username: string, password: string) {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.address };
    if (this.cookies.size > 0) {
      headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const response = await this.server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      headers,
      body: new URLSearchParams({ Username: username, Password: password }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      this.cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    return response;
  }

  cookie(name: string) {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }
}

/** Sends `count` attempts, `parallel` at a time; returns how many were answered with each status. */
async function attempts(
  count: number,
  parallel: number,
  attempt: (index: number) => Promise<Response | { status: number }>,
) {
  const statuses = new Map<number, number>();
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, offset) =>
      attempt(start + offset),
    );
    for (const response of await Promise.all(batch)) {
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  }
  return statuses;
}

describe('sign-in limits with device cookies, behind a trusted proxy', () => {
  let clock: Date;
  let server: TestServer;
  beforeAll(async () => {
    clock = new Date();
    server = await startTestServer({
      mode: 'embedded',
      now: () => clock,
      env: { TRUST_PROXY: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await server.close();
  });
  // Each test starts with every earlier test's failures out of the window.
  const nextWindow = () => {
    clock = new Date(clock.getTime() + SIGN_IN_LIMITS.windowMs + 1000);
  };

  test('1,000 failures for alice from elsewhere do not stop alice signing in from her own browser', async () => {
    const alice = await createAccount(server.app.services.db, 'alice');
    const own = new Browser(server, '198.51.100.10');
    expect((await own.signIn('alice', alice.password)).status).toBe(200);

    const statuses = await attempts(1000, 25, (index) =>
      new Browser(server, `10.${Math.floor(index / 250)}.${index % 250}.1`).signIn(
        'alice',
        `guess-${index}`,
      ),
    );
    expect(statuses.get(401)).toBe(SIGN_IN_LIMITS.perAccount);
    expect(statuses.get(429)).toBe(1000 - SIGN_IN_LIMITS.perAccount);

    // A new browser, even with the right password, is one of the untrusted clients.
    const elsewhere = await new Browser(server, '198.51.100.99').signIn('alice', alice.password);
    expect(elsewhere.status).toBe(429);

    expect((await own.signIn('alice', 'a typo')).status).toBe(401);
    expect((await own.signIn('alice', alice.password)).status).toBe(200);
    nextWindow();
  });

  test('1,000 failures with random usernames from one address do not stop a trusted browser behind it', async () => {
    const bob = await createAccount(server.app.services.db, 'bob');
    const office = '203.0.113.7';
    const bobsBrowser = new Browser(server, office);
    expect((await bobsBrowser.signIn('bob', bob.password)).status).toBe(200);

    const statuses = await attempts(1000, 25, (index) =>
      new Browser(server, office).signIn(`user-${index}-${Math.random()}`, 'guess'),
    );
    expect(statuses.get(401)).toBe(SIGN_IN_LIMITS.perAddress);
    expect(statuses.get(429)).toBe(1000 - SIGN_IN_LIMITS.perAddress);

    expect((await bobsBrowser.signIn('bob', bob.password)).status).toBe(200);
    // A colleague behind the same address who never signed in here waits with the guesser.
    const carol = await createAccount(server.app.services.db, 'carol-new');
    const newcomer = await new Browser(server, office).signIn('carol-new', carol.password);
    expect(newcomer.status).toBe(429);
    expect(Number(newcomer.headers.get('retry-after'))).toBeGreaterThan(0);
    nextWindow();
  });

  test('an attacker gets 5 guesses per account and 20 per address, answered 401 then 429 with Retry-After', async () => {
    const dave = await createAccount(server.app.services.db, 'dave');
    const statuses: number[] = [];
    for (let guess = 0; guess < 8; guess += 1) {
      const response = await new Browser(server, `192.0.2.${guess + 1}`).signIn(
        'dave',
        `g${guess}`,
      );
      statuses.push(response.status);
      if (response.status === 429) {
        // The oldest failure was `guess` seconds ago; the lock lifts when it leaves the window.
        expect(response.headers.get('retry-after')).toBe(
          String(SIGN_IN_LIMITS.windowMs / 1000 - guess),
        );
        expect(errorEnvelopeSchema.parse(response.body).code).toBe(429);
      }
      clock = new Date(clock.getTime() + 1000);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const rightPassword = await new Browser(server, '192.0.2.200').signIn('dave', dave.password);
    expect(rightPassword.status).toBe(429);
    expect(rightPassword.headers.get('retry-after')).toBe(String(15 * 60 - 8));

    nextWindow();
    const address = '192.0.2.250';
    for (let guess = 0; guess < SIGN_IN_LIMITS.perAddress; guess += 1) {
      expect((await new Browser(server, address).signIn(`spray-${guess}`, 'g')).status).toBe(401);
    }
    expect((await new Browser(server, address).signIn('dave', dave.password)).status).toBe(429);
    expect((await new Browser(server, '192.0.2.251').signIn('dave', dave.password)).status).toBe(
      200,
    );
    nextWindow();
  });

  test('the answers do not tell whether a username exists', async () => {
    await createAccount(server.app.services.db, 'erin');
    const answersFor = async (username: string, addressPrefix: string) => {
      const answers = [];
      for (let guess = 0; guess < 7; guess += 1) {
        const response = await new Browser(server, `${addressPrefix}.${guess + 1}`).signIn(
          username,
          'wrong',
        );
        answers.push({
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          message: errorEnvelopeSchema.parse(response.body).message,
          cookies: response.headers.getSetCookie().length,
        });
      }
      return answers;
    };
    const known = await answersFor('erin', '198.18.0');
    const unknown = await answersFor('nobody-called-this', '198.18.1');
    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    nextWindow();
  });

  test('a trusted browser is limited on its own, and a cookie for another account or altered is not trusted', async () => {
    const frank = await createAccount(server.app.services.db, 'frank');
    const grace = await createAccount(server.app.services.db, 'grace');
    const franksBrowser = new Browser(server, '100.64.0.1');
    expect((await franksBrowser.signIn('frank', frank.password)).status).toBe(200);
    for (let guess = 0; guess < SIGN_IN_LIMITS.perDevice; guess += 1) {
      expect((await franksBrowser.signIn('frank', 'typo')).status).toBe(401);
    }
    expect((await franksBrowser.signIn('frank', frank.password)).status).toBe(429);

    // Grace is locked for untrusted clients; Frank's cookie renamed to hers must not let him in.
    for (let guess = 0; guess < SIGN_IN_LIMITS.perAccount; guess += 1) {
      await new Browser(server, `100.64.1.${guess + 1}`).signIn('grace', 'guess');
    }
    const forger = new Browser(server, '100.64.2.1');
    forger.setCookie(
      deviceCookieName('grace'),
      franksBrowser.cookie(deviceCookieName('frank')) ?? '',
    );
    expect((await forger.signIn('grace', grace.password)).status).toBe(429);

    const gracesBrowser = new Browser(server, '100.64.3.1');
    nextWindow();
    expect((await gracesBrowser.signIn('grace', grace.password)).status).toBe(200);
    const genuine = gracesBrowser.cookie(deviceCookieName('grace')) ?? '';
    for (let guess = 0; guess < SIGN_IN_LIMITS.perAccount; guess += 1) {
      await new Browser(server, `100.64.4.${guess + 1}`).signIn('grace', 'guess');
    }
    const altered = new Browser(server, '100.64.3.1');
    altered.setCookie(
      deviceCookieName('grace'),
      genuine.replace(/.(?=\.[^.]*$)/, (c) => (c === 'a' ? 'b' : 'a')),
    );
    expect((await altered.signIn('grace', grace.password)).status).toBe(429);
    expect((await gracesBrowser.signIn('grace', grace.password)).status).toBe(200);
    nextWindow();
  });

  test('the device cookie is HttpOnly, SameSite=Strict, sent to the sign-in route only, and Secure over HTTPS', async () => {
    const heidi = await createAccount(server.app.services.db, 'heidi');
    const overHttp = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      body: new URLSearchParams({ Username: 'heidi', Password: heidi.password }),
    });
    const [plain] = overHttp.headers.getSetCookie();
    expect(plain).toMatch(new RegExp(`^${deviceCookieName('heidi')}=`));
    expect(plain).toMatch(/; HttpOnly/);
    expect(plain).toMatch(/; SameSite=Strict/);
    expect(plain).toMatch(/; Path=\/api\/gettoken/);
    expect(plain).not.toMatch(/; Secure/);

    const overHttps = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      headers: { 'X-Forwarded-Proto': 'https' },
      body: new URLSearchParams({ Username: 'heidi', Password: heidi.password }),
    });
    expect(overHttps.headers.getSetCookie()[0]).toMatch(/; Secure/);

    const failed = await new Browser(server, '100.65.0.1').signIn('heidi', 'wrong');
    expect(failed.headers.getSetCookie()).toEqual([]);
    nextWindow();
  });

  test('API-key clients are unaffected by locked accounts and addresses', async () => {
    const { username } = server.account;
    const statuses = await attempts(30, 10, () =>
      server.request('/api/gettoken', {
        method: 'POST',
        auth: 'none',
        body: new URLSearchParams({ Username: username, Password: 'guess' }),
      }),
    );
    expect(statuses.get(429)).toBeGreaterThan(0);
    const withKey = await server.request('/api/v2/entities?limit=1', { auth: 'apiKey' });
    expect(withKey.status).toBe(200);
    nextWindow();
  });

  test('parallel sign-ins with the right password all succeed; parallel guesses still stop at 5', async () => {
    const ivan = await createAccount(server.app.services.db, 'ivan');
    const right = await attempts(10, 10, (index) =>
      new Browser(server, `100.66.0.${index + 1}`).signIn('ivan', ivan.password),
    );
    expect(right).toEqual(new Map([[200, 10]]));

    const wrong = await attempts(10, 10, (index) =>
      new Browser(server, `100.66.1.${index + 1}`).signIn('ivan', `guess-${index}`),
    );
    expect(wrong).toEqual(
      new Map([
        [401, SIGN_IN_LIMITS.perAccount],
        [429, 10 - SIGN_IN_LIMITS.perAccount],
      ]),
    );
    nextWindow();
  });

  test('an attempt cut off mid-check (a crashed process) counts as a failure once it is stale', async () => {
    const judy = await createAccount(server.app.services.db, 'judy');
    const db = server.app.services.db;
    const staleAt = clock.getTime() - SIGN_IN_LIMITS.pendingTimeoutMs - 1;
    await db
      .insertInto('sign_in_attempts')
      .values(
        Array.from({ length: SIGN_IN_LIMITS.perAccount }, (_, index) => ({
          attempt_id: `crashed-${index}`,
          limit_key: 'account:judy',
          at_ms: staleAt,
          state: 'pending' as const,
        })),
      )
      .execute();
    expect((await new Browser(server, '100.67.0.1').signIn('judy', judy.password)).status).toBe(
      429,
    );
    nextWindow();
  });
});

describe('through a gateway in front of the server that counts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'gateway' });
  });
  afterAll(async () => {
    await server.close();
  });

  test('the device cookie passes both ways, so a trusted browser signs in while the gateway’s address is locked', async () => {
    const kim = await createAccount(server.app.services.db, 'kim');
    // Every client reaches the counting server from the gateway's one address.
    const kimsBrowser = new Browser(server, 'ignored-by-the-gateway');
    expect((await kimsBrowser.signIn('kim', kim.password)).status).toBe(200);
    expect(kimsBrowser.cookie(deviceCookieName('kim'))).toBeDefined();

    const statuses = await attempts(40, 10, (index) =>
      new Browser(server, 'ignored-by-the-gateway').signIn(`spray-${String(index)}`, 'guess'),
    );
    expect(statuses.get(429)).toBeGreaterThan(0);
    expect((await new Browser(server, 'x').signIn('kim', kim.password)).status).toBe(429);
    expect((await kimsBrowser.signIn('kim', kim.password)).status).toBe(200);
  });

  test('other cookies stay at the gateway, and only device cookies come back', async () => {
    const upstream = await startRecordingUpstream();
    upstream.handle((_request, response) => {
      response.setHeader('set-cookie', [
        `${deviceCookieName('nobody')}=signed; Path=/api/gettoken; HttpOnly; SameSite=Strict`,
        'tracking=1; Path=/',
      ]);
      sendJson(response, 401, { code: 401, status: 'error', message: 'No.', data: [] });
    });
    const gateway = await createApp(
      {
        ...loadConfig({
          DATA_DIR: server.dataDir,
          KYC_UPSTREAM_URL: upstream.url,
          KYC_UPSTREAM_API_KEY: 'kyc_key',
        }),
        staticDir: undefined,
      },
      { logger: false },
    );
    try {
      const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${base}/api/gettoken`, {
        method: 'POST',
        headers: { Cookie: `session=secret; ${deviceCookieName('nobody')}=x.y; other=1` },
        body: new URLSearchParams({ Username: 'nobody', Password: 'guess' }),
      });
      expect(response.status).toBe(401);
      expect(upstream.requests.map((request) => request.headers.cookie)).toEqual([
        `${deviceCookieName('nobody')}=x.y`,
      ]);
      expect(response.headers.getSetCookie()).toEqual([
        `${deviceCookieName('nobody')}=signed; Path=/api/gettoken; HttpOnly; SameSite=Strict`,
      ]);
    } finally {
      await gateway.close();
      await upstream.stop();
    }
  });
});

describe('the limits hold across two servers on one database', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startTestServer({ mode: 'embedded' });
    second = await startTestServer({
      mode: 'embedded',
      dataDir: first.dataDir,
      databaseUrl: first.databaseUrl,
    });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  test('guesses split over both are limited as against one', async () => {
    const { username, password } = first.account;
    const guess = (server: TestServer) =>
      server.request('/api/gettoken', {
        method: 'POST',
        auth: 'none',
        body: new URLSearchParams({ Username: username, Password: 'guess' }),
      });
    const statuses = [];
    for (const server of [first, second, first, second, first, second, first]) {
      statuses.push((await guess(server)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const right = await second.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      body: new URLSearchParams({ Username: username, Password: password }),
    });
    expect(right.status).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  test('unset, X-Forwarded-For is ignored: forged addresses do not escape the address limit', async () => {
    const server = await startTestServer({ mode: 'embedded' });
    try {
      const statuses = await attempts(SIGN_IN_LIMITS.perAddress + 1, 1, (index) =>
        server.request('/api/gettoken', {
          method: 'POST',
          auth: 'none',
          headers: { 'X-Forwarded-For': `10.9.0.${index + 1}` },
          body: new URLSearchParams({ Username: `spray-${index}`, Password: 'g' }),
        }),
      );
      expect(statuses).toEqual(
        new Map([
          [401, SIGN_IN_LIMITS.perAddress],
          [429, 1],
        ]),
      );
    } finally {
      await server.close();
    }
  });

  test('the request log carries the address the trusted proxy forwarded', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-test-'));
    const lines: string[] = [];
    const app = await createApp(
      {
        ...loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.0/8' }),
        staticDir: undefined,
      },
      { logger: { level: 'info', destination: { write: (line) => lines.push(line) } } },
    );
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      await fetch(`${base}/healthz`, { headers: { 'X-Forwarded-For': '203.0.113.44' } });
      const incoming = lines
        .map((line) => JSON.parse(line) as { msg?: string; req?: { remoteAddress?: string } })
        .find((entry) => entry.msg === 'incoming request');
      expect(incoming?.req?.remoteAddress).toBe('203.0.113.44');
    } finally {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  test.each(['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1', '::1/129'])(
    'a bad value (%s) stops the start with a sentence naming TRUST_PROXY',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be/);
    },
  );

  test('addresses, ranges and names are accepted', () => {
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.5, 192.168.0.0/16,::1,fd00::/8,loopback ' }).trustProxy,
    ).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
    expect(loadConfig({}).trustProxy).toEqual([]);
  });
});
