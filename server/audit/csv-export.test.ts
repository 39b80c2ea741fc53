import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import { issueToken } from '../auth/tokens.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded' });
});
afterAll(async () => {
  await server.close();
});

const HOSTILE_NAMES = [
  'evil\r\nadmin,auth.sign-in,success',
  '\u001b[2J\u001b[31mroot\u0007',
  '=HYPERLINK("http://x","y")',
  'tab\tname\u202Etxt.exe',
];

test('hostile usernames reach the CSV export escaped, one row each, formulas inert', async () => {
  for (const name of HOSTILE_NAMES) {
    const answer = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      body: new URLSearchParams({ Username: name, Password: 'wrong' }),
    });
    expect(answer.status).toBe(401);
  }
  await createAccount(server.app.services.db, 'csv-auditor', { role: 'auditor' });
  const auditor = await accountsRepository(server.app.services.db).findByUsername('csv-auditor');
  if (!auditor) throw new Error('auditor missing');
  const { token } = await issueToken(server.app.services, auditor);
  const response = await fetch(
    `${server.baseUrl}/api/v2/audit-events?format=csv&action=auth.sign-in-failed`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(response.status).toBe(200);
  const text = await response.text();

  // eslint-disable-next-line no-control-regex
  expect(text.replaceAll('\r\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  const rows = text.split('\r\n').filter((line) => line !== '');
  expect(rows).toHaveLength(1 + HOSTILE_NAMES.length);
  for (const shown of [
    String.raw`"evil\u000d\u000aadmin,auth.sign-in,success"`,
    String.raw`\u001b[2J\u001b[31mroot\u0007`,
    String.raw`tab\u0009name\u202etxt.exe`,
  ]) {
    expect(rows.filter((row) => row.includes(`,${shown},auth.sign-in-failed,`))).toHaveLength(1);
  }
  // Quoted (it holds quotes and a comma), and the formula made inert by a leading apostrophe.
  expect(text).toContain(String.raw`"'=HYPERLINK(""http://x"",""y"")"`);
});
