import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app.ts';
import { createAccount } from '../auth/accounts.ts';
import { loadConfig } from '../env.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';
import { insertLegalEntity } from '../testing/fixtures.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, TEST_DOCUMENT_KEY } from '../testing/harness.ts';

const setup = async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-abort-'));
  const databaseUrl = await newTestDatabaseUrl();
  const lines: string[] = [];
  const app = await createApp(
    {
      ...loadConfig({
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, DOCUMENT_KEY: TEST_DOCUMENT_KEY } : {}),
      }),
      staticDir: undefined,
    },
    { logger: { level: 'debug', destination: { write: (line) => lines.push(line) } } },
  );
  const { apiKey } = await createAccount(app.services.db, 'abort-reviewer');
  const entityIds: string[] = [];
  for (let index = 0; index < 5; index += 1) {
    entityIds.push((await insertLegalEntity(app.services.db)).legalEntityId);
  }
  // A document large enough that its answer is still streaming when the client hangs up.
  const created = await app.inject({
    method: 'POST',
    url: '/api/v2/entities/legal-entities',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    payload: legalEntityPayload({
      supportingDocuments: [
        {
          fileName: 'large.pdf',
          type: 'Other',
          mimeType: 'application/pdf',
          file: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2_000_000, 32)]).toString(
            'base64',
          ),
        },
      ],
    }),
  });
  const documentId = (
    created.json<{ data: { supportingDocuments: { documentId: string }[] } }>().data
      .supportingDocuments[0] ?? { documentId: '' }
  ).documentId;
  const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
  // Start-up's own notes (a generated document key) are not the subject.
  lines.length = 0;
  return {
    app,
    dataDir,
    databaseUrl,
    lines,
    apiKey,
    entityIds,
    documentId,
    port: Number(address.port),
  };
};

/** Sends `head` (and `body`), then closes the socket `afterMs` later, before the answer is read. */
function sendAndHangUp(port: number, head: string, body: string, afterMs: number) {
  return new Promise<void>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head + body);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, afterMs);
    });
    socket.on('error', () => undefined);
  });
}

test('a client that hangs up mid-request leaves no warning or error in the log', async () => {
  const { app, dataDir, databaseUrl, lines, apiKey, entityIds, documentId, port } = await setup();
  expect(documentId).not.toBe('');
  try {
    const get = (url: string) =>
      `GET ${url} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${apiKey}\r\nConnection: close\r\n\r\n`;
    const hangUps: Promise<void>[] = [];
    for (let index = 0; index < 10; index += 1) {
      // At once and a moment later: before the handler's first query, and during its work.
      hangUps.push(sendAndHangUp(port, get('/api/v2/entities?limit=100'), '', index % 5));
      hangUps.push(sendAndHangUp(port, get('/api/v2/reviews'), '', index % 5));
      hangUps.push(
        sendAndHangUp(port, get(`/api/v2/entities/${entityIds[index] ?? ''}`), '', index % 3),
      );
      hangUps.push(sendAndHangUp(port, get(`/api/v2/documents/${documentId}`), '', index * 3));
    }
    for (let index = 0; index < 5; index += 1) {
      const create = JSON.stringify({
        corporateInformation: { companyName: `Hang-up ${String(index)}` },
      });
      hangUps.push(
        sendAndHangUp(
          port,
          `POST /api/v2/entities/legal-entities HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${String(create.length)}\r\n\r\n`,
          create,
          index % 4,
        ),
      );
      const form = `--b\r\nContent-Disposition: form-data; name="Username"\r\n\r\nnobody\r\n--b\r\nContent-Disposition: form-data; name="Password"\r\n\r\n`;
      hangUps.push(
        sendAndHangUp(
          port,
          `POST /api/gettoken HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${String(form.length + 40)}\r\n\r\n`,
          form,
          index % 4,
        ),
      );
    }
    // An upload cut off after half its announced body.
    const body = JSON.stringify({ type: 'x', filler: 'a'.repeat(50_000) });
    hangUps.push(
      sendAndHangUp(
        port,
        `POST /api/v2/entities HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
        body.slice(0, body.length / 2),
        20,
      ),
    );
    await Promise.all(hangUps);
    // The server finishes what it started (audit appends) before the log is read.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const loud = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level >= 40);
    expect(loud).toEqual([]);
    const health = await fetch(`http://127.0.0.1:${String(port)}/healthz`);
    expect(health.status).toBe(200);
  } finally {
    await app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    await dropTestDatabaseUrl(databaseUrl);
  }
});
