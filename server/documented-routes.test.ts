import fs from 'node:fs';
import path from 'node:path';
import { createApp, type App } from './app.ts';
import { loadConfig } from './env.ts';
import { startTestServer, type TestServer } from './testing/harness.ts';

// The docs' `METHOD /api/…` mentions are routes taking that method (docs once said PUT for PATCH).

const root = path.join(import.meta.dirname, '..');
const files = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Mention {
  file: string;
  method: string;
  pathname: string;
}

/** `GET /api/v2/entities/{id}/notes?limit=` → GET /api/v2/entities/x/notes; `…` paths are skipped. */
function mentionsIn(file: string): Mention[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: Mention[] = [];
  for (const match of text.matchAll(
    /\b((?:GET|HEAD|POST|PUT|PATCH|DELETE)(?:\|(?:GET|HEAD|POST|PUT|PATCH|DELETE))*) (\/api\/[^\s`'")\]…]*)/g,
  )) {
    const [, methods = '', target = ''] = match;
    // A path cut short with … names no one route.
    const rest = text.slice(match.index + match[0].length);
    if (!target.includes('?') && rest.startsWith('…')) continue;
    const pathname = (target.split('?')[0] ?? '')
      .replace(/[.,;:]+$/, '')
      .replace(/\{[^}]+\}|:[A-Za-z]+|<[^>]+>/g, 'x')
      .replace(/\/$/, '');
    for (const method of methods.split('|')) found.push({ file, method, pathname });
  }
  return found;
}

const mentions = files.flatMap(mentionsIn);

let server: TestServer;
let gateway: App;
beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded' });
  // A gateway in front of it with every optional route on: webhooks need a secret.
  gateway = await createApp(
    {
      ...loadConfig({
        DATA_DIR: path.join(server.dataDir, 'gateway'),
        PORT: '0',
        LOG_LEVEL: 'silent',
        KYC_UPSTREAM_URL: server.baseUrl,
        KYC_UPSTREAM_API_KEY: server.account.apiKey,
        WEBHOOK_SECRET: 'documented-routes-webhook-secret-0123456789',
      }),
      staticDir: undefined,
    },
    { logger: false },
  );
  await gateway.ready();
});
afterAll(async () => {
  await gateway.close();
  await server.close();
});

test('the docs name routes at all (the pattern still finds them)', () => {
  expect(mentions.length).toBeGreaterThan(30);
  expect(mentions).toContainEqual({
    file: 'docs/reviews-decisions.md',
    method: 'PATCH',
    pathname: '/api/v2/documents/x',
  });
});

test('every route the docs name takes the method they name, in one mode or the other', () => {
  const wrong = mentions.filter(({ method, pathname }) => {
    const allowed = [
      ...server.app.allowedMethodsOf(pathname),
      ...gateway.allowedMethodsOf(pathname),
    ];
    return !allowed.includes(method);
  });
  expect(wrong.map(({ file, method, pathname }) => `${file}: ${method} ${pathname}`)).toEqual([]);
});
