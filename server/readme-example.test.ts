import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDemoData } from './seed/demo.ts';
import { startTestServer, testEngine, type TestServer } from './testing/harness.ts';

// The README's curl example, run as printed (bash and curl) on demo data, so it cannot drift.

const readme = fs.readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
const apiSection = readme.slice(readme.indexOf('## The API'), readme.indexOf('## Gateway mode'));
const example = /```sh\n([\s\S]*?)```/.exec(apiSection)?.[1] ?? '';
const CREDENTIALS_LINE = "PASSWORD='…'; KEY='kyc_…'";

let server: TestServer;
let demoPassword: string;
beforeAll(async () => {
  server = await startTestServer();
  demoPassword = (await ensureDemoData(server.app.services))?.password ?? '';
}, 120_000);
afterAll(() => server.close());

/** Each command's output on its own line, so that every answer can be read alone. */
async function runExample(): Promise<string[]> {
  const script = example
    .replace('BASE=http://localhost:8080', `BASE=${server.baseUrl}`)
    .replace(CREDENTIALS_LINE, `PASSWORD='${demoPassword}'; KEY='${server.account.apiKey}'`);
  // A line break before each command: curl's answers end without one.
  const { stdout } = await promisify(execFile)(
    'bash',
    ['-eu', '-c', `trap echo DEBUG\n${script}`],
    {
      timeout: 30_000,
    },
  );
  return stdout.split('\n').filter((line) => line.trim() !== '');
}

test('the README example is found with its placeholders', () => {
  expect(example).toContain('BASE=http://localhost:8080');
  expect(example).toContain(CREDENTIALS_LINE);
  expect(example).toContain('/request-client-update');
});

test('every request of the README example succeeds on demo data as printed', async () => {
  expect(demoPassword).not.toBe('');
  const answers = await runExample();
  const failures = answers.filter((line) => line.includes('"status":"error"'));
  expect(failures).toEqual([]);
  const json = answers
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as { code?: number; data?: Record<string, unknown> };
      } catch {
        return {};
      }
    });
  // The create answers 201 and the client update 202, both as envelopes.
  expect(json.map((answer) => answer.code)).toEqual(expect.arrayContaining([201, 202]));
  expect(answers).toContain(
    JSON.stringify({ status: 'ok', mode: 'embedded', engine: testEngine, database: 'ok' }),
  );
});
