import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { entityListResponseSchema } from '../../contract/entities.ts';
import { createApp, type App } from '../app.ts';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../http/security.ts';
import { loadConfig } from '../env.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

function expectSecurityHeaders(headers: Headers) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(headers.get(name), name).toBe(value);
  }
}

describe('security headers through the API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('the policy forbids inline script, eval, framing and foreign origins', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((directive) => {
        const [name = '', ...values] = directive.split(' ');
        return [name, values] as const;
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(['blob:']);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*/);
  });

  test('a JSON API answer carries them and is not cached', async () => {
    const response = await server.request('/api/v2/entities');
    entityListResponseSchema.parse(response.body);
    expectSecurityHeaders(response.headers);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  test('errors carry them too: 401, 404, 400 and the health check', async () => {
    const unauthenticated = await server.request('/api/v2/entities', { auth: 'none' });
    const unknownPath = await server.request('/api/nothing-here');
    const badParameter = await server.request('/api/v2/entities?limit=1000');
    const health = await server.request('/healthz', { auth: 'none' });
    // Answered by frameworkErrors before routing, so before any onRequest hook.
    const badEncoding = await server.request('/api/v2/%zz');
    for (const [response, status] of [
      [unauthenticated, 401],
      [unknownPath, 404],
      [badParameter, 400],
      [badEncoding, 400],
    ] as const) {
      expect(response.status).toBe(status);
      errorEnvelopeSchema.parse(response.body);
      expectSecurityHeaders(response.headers);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    expect(health.status).toBe(200);
    expectSecurityHeaders(health.headers);
  });

  test('the API reference page and its stylesheet carry the policy, and the page needs no script', async () => {
    const page = await server.request('/api/docs', { auth: 'none' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expectSecurityHeaders(page.headers);
    expect(page.text).not.toMatch(/<script|\son[a-z]+=|style=/i);
    expect(page.text).toContain('href="/api/docs.css"');
    const css = await server.request('/api/docs.css', { auth: 'none' });
    expect(css.status).toBe(200);
    expectSecurityHeaders(css.headers);
  });

  test('no CORS headers when CORS_ORIGINS is not set', async () => {
    const response = await server.request('/api/v2/entities', {
      headers: { Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await server.request('/api/v2/entities', {
      method: 'OPTIONS',
      auth: 'none',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('CORS with CORS_ORIGINS', () => {
  const allowedOrigin = 'https://console.example.com';
  let server: TestServer;
  beforeAll(async () => {
    // The harness hands `env` to the embedded server only; the CORS hook is the same in both modes.
    server = await startTestServer({
      mode: 'embedded',
      env: { CORS_ORIGINS: `${allowedOrigin}, http://localhost:5173` },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  test('a listed origin gets a preflight answer naming it, without the API key header', async () => {
    const preflight = await server.request('/api/v2/entities', {
      method: 'OPTIONS',
      auth: 'none',
      headers: {
        Origin: allowedOrigin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-headers')).not.toMatch(/x-api-key/i);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expectSecurityHeaders(preflight.headers);
  });

  test('a listed origin gets its own name back on a real request, never a wildcard', async () => {
    const response = await server.request('/api/v2/entities', {
      auth: 'token',
      headers: { Origin: 'http://localhost:5173' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  test('an unlisted origin, or a listed one with another port or scheme, gets no CORS headers', async () => {
    for (const origin of [
      'https://evil.example',
      'http://console.example.com',
      'https://console.example.com:8443',
      'null',
    ]) {
      const preflight = await server.request('/api/v2/entities', {
        method: 'OPTIONS',
        auth: 'none',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status, origin).not.toBe(204);
      expect(preflight.headers.get('access-control-allow-origin'), origin).toBeNull();
      const response = await server.request('/api/v2/entities', { headers: { Origin: origin } });
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  test('CORS_ORIGINS refuses wildcards and paths at start-up', () => {
    for (const value of [
      '*',
      'https://console.example.com/',
      'console.example.com',
      'https://*.example.com',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: value }), value).toThrow(/CORS_ORIGINS/);
    }
    expect(
      loadConfig({ CORS_ORIGINS: ' https://a.example ,https://b.example:8443' }).corsOrigins,
    ).toEqual(['https://a.example', 'https://b.example:8443']);
  });
});

const APP_JS = 'export {};';

describe('security headers on the console files', () => {
  let app: App;
  let baseUrl: string;
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-console-'));
    const staticDir = path.join(root, 'dist');
    await fs.mkdir(path.join(staticDir, 'assets'), { recursive: true });
    await fs.writeFile(
      path.join(staticDir, 'index.html'),
      '<!doctype html><title>KYC Desk</title>',
    );
    await fs.writeFile(path.join(staticDir, 'assets', 'app.js'), APP_JS);
    // As the build's precompress step leaves them: the same script, compressed.
    await fs.writeFile(
      path.join(staticDir, 'assets', 'app.js.br'),
      zlib.brotliCompressSync(APP_JS),
    );
    await fs.writeFile(path.join(staticDir, 'assets', 'app.js.gz'), zlib.gzipSync(APP_JS));
    const config = {
      ...loadConfig({ DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'silent' }),
      staticDir,
    };
    app = await createApp(config, { logger: false });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  test('index.html, a client-side route, an asset and a missing asset all carry the policy', async () => {
    for (const [pathname, status, type] of [
      ['/', 200, /^text\/html/],
      ['/entities/some-id', 200, /^text\/html/],
      ['/assets/app.js', 200, /javascript/],
      ['/assets/missing.js', 404, /^application\/json/],
    ] as const) {
      const response = await fetch(baseUrl + pathname);
      expect(response.status, pathname).toBe(status);
      expect(response.headers.get('content-type'), pathname).toMatch(type);
      expectSecurityHeaders(response.headers);
      await response.arrayBuffer();
    }
  });

  test('a hashed asset goes compressed as the client accepts and is cached for good; index.html is not', async () => {
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const response = await fetch(`${baseUrl}/assets/app.js`, {
        headers: { 'Accept-Encoding': accept },
      });
      expect(response.headers.get('content-encoding'), accept).toBe(encoding);
      expect(response.headers.get('content-type'), accept).toMatch(/javascript/);
      expect(response.headers.get('vary'), accept).toMatch(/accept-encoding/i);
      expect(response.headers.get('cache-control'), accept).toBe(
        'public, max-age=31536000, immutable',
      );
      expect(await response.text(), accept).toBe(APP_JS);
    }
    // fetch accepts br and gzip: a file the build left no copy of is sent as it is, not compressed here.
    const page = await fetch(`${baseUrl}/entities`);
    expect(page.headers.get('cache-control')).toBe('public, max-age=0');
    expect(page.headers.get('content-encoding')).toBeNull();
    await page.arrayBuffer();
  });
});
