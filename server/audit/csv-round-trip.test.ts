import { afterAll, beforeAll, expect, test } from 'vitest';
import { legalEntityCreatedResponseSchema } from '../../contract/decisions.ts';
import { createAccount } from '../auth/accounts.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

/**
 * Hostile text goes in through the real API and comes back out of the audit CSV export: a real
 * RFC 4180 parse gives one record per event and, cell by cell, the text with its hidden
 * characters written as escapes and a leading formula character defused (docs/audit.md).
 */
let server: TestServer;
let auditorToken = '';

beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded' });
  const auditor = await createAccount(server.app.services.db, `csv-auditor-${Date.now()}`, {
    role: 'auditor',
  });
  auditorToken = await signIn(auditor.username, auditor.password);
});
afterAll(async () => {
  await server.close();
});

async function signIn(username: string, password: string) {
  const answer = await server.request('/api/gettoken', {
    method: 'POST',
    auth: 'none',
    body: new URLSearchParams({ Username: username, Password: password }),
  });
  return answer.status === 200 ? (answer.body as { token: string }).token : '';
}

/** RFC 4180: records end in CRLF, fields split on commas, a quoted field doubles its quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else field += char;
  }
  expect(quoted).toBe(false);
  expect(field).toBe('');
  return records;
}

/** Each hostile username as typed, and the exact cell the export must give back. */
const USERNAMES: [typed: string, cell: string][] = [
  ['evil\r\nadmin,auth.sign-in,success', String.raw`evil\u000d\u000aadmin,auth.sign-in,success`],
  ['\u001b[2J\u001b[31mroot\u0007', String.raw`\u001b[2J\u001b[31mroot\u0007`],
  ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ['say "hi", then, bye', 'say "hi", then, bye'],
  ['@SUM(1+1)\u0085', String.raw`'@SUM(1+1)\u0085`],
  ['-2+3\u202e', String.raw`'-2+3\u202e`],
];

const ENTITY_NAME = '=HYPERLINK("http://x.example","Acme")\u001b[0m, Ltd\r\n';
const RISK_REASON = 'Adverse media\u0007 "quoted", \u2028second line';
const NOTE_TEXT = 'Call back\u001b[31m =2+5, "urgent"';

test('hostile usernames, entity names, reasons and notes survive the CSV export exactly, escaped and defused', async () => {
  for (const [typed] of USERNAMES) {
    expect(await signIn(typed, 'wrong password')).toBe('');
  }
  const created = await postLegalEntity(
    server,
    legalEntityPayload({ corporateInformation: { companyName: ENTITY_NAME } }),
  );
  expect(created.status).toBe(201);
  const entityId = legalEntityCreatedResponseSchema.parse(created.body).data.id;
  const json = (body: unknown, method = 'POST') => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const risk = await server.request(
    `/api/v2/entities/${entityId}/risk-level`,
    json({ riskLevel: 'High', reason: RISK_REASON }, 'PUT'),
  );
  expect(risk.status).toBe(200);
  const note = await server.request(
    `/api/v2/entities/${entityId}/notes`,
    json({ text: NOTE_TEXT }),
  );
  expect(note.status).toBe(201);

  const response = await fetch(`${server.baseUrl}/api/v2/audit-events?format=csv`, {
    headers: { Authorization: `Bearer ${auditorToken}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  // eslint-disable-next-line no-control-regex
  expect(text.replaceAll('\r\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u202e]/);
  const [header = [], ...rows] = parseCsv(text);
  for (const row of rows) expect(row).toHaveLength(header.length);
  const cells = rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));

  const failedActors = cells
    .filter((row) => row.action === 'auth.sign-in-failed')
    .map((row) => row.actor);
  expect(failedActors.toSorted()).toEqual(USERNAMES.map(([, cell]) => cell).toSorted());

  // The detail is JSON: visible escapes inside it read back as the text that was sent.
  const detailOf = (action: string) => {
    const cell = cells.find((row) => row.action === action && row.entityId === entityId)?.detail;
    expect(cell).toBeDefined();
    return JSON.parse(cell ?? '') as Record<string, unknown>;
  };
  expect(detailOf('entity.create').companyName).toBe(ENTITY_NAME.trim());
  expect(detailOf('entity.risk-level').reason).toBe(RISK_REASON);
  expect(text).toContain(String.raw`\u001b[0m, Ltd`);
  expect(text).toContain(String.raw`\u2028second line`);
  // A note's text is never in the trail, hostile or not: only its id and length.
  expect(detailOf('note.add')).toMatchObject({ length: NOTE_TEXT.length });
  expect(text).not.toContain('Call back');
});
