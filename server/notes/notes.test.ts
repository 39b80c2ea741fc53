import { setTimeout as sleep } from 'node:timers/promises';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { MAX_NOTE_LENGTH, noteResponseSchema, notePageSchema } from '../../contract/notes.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';

// In the server-gateway project the same tests go through a gateway, which keeps notes itself.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const notesPath = (id: string, query = '') => `/api/v2/entities/${id}/notes${query}`;

function post(id: string, body: unknown, auth: 'apiKey' | 'token' = 'token') {
  return server.request(notesPath(id), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    auth,
  });
}

async function page(id: string, query = '') {
  const { status, body } = await server.request(notesPath(id, query), { auth: 'token' });
  expect(status).toBe(200);
  return notePageSchema.parse(body);
}

test('a note is trimmed, authored by the caller and timed by the server', async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  const before = Date.now();
  const { status, body } = await post(legalEntityId, {
    text: '  Called the director; awaiting accounts.\n',
  });
  expect(status).toBe(201);
  const note = noteResponseSchema.parse(body).data;
  expect(note.text).toBe('Called the director; awaiting accounts.');
  expect(note.author).toBe(server.account.username);
  expect(Date.parse(note.at)).toBeGreaterThanOrEqual(before - 1000);
  expect((await page(legalEntityId)).data).toEqual([note]);
  // The same event in both modes: in gateway mode, in the gateway's own trail.
  const { body: trail } = await server.request(`/api/v2/entities/${legalEntityId}/audit-events`);
  expect(
    (trail as { data: { action: string; actor: string; detail: unknown }[] }).data,
  ).toContainEqual(
    expect.objectContaining({
      action: 'note.add',
      actor: server.account.username,
      detail: { noteId: note.id, length: note.text.length },
    }),
  );
});

test('notes come newest first, and paging walks every note once, with no gaps', async () => {
  const personId = await insertNaturalPerson(server.app.services.db);
  const texts = ['first', 'second', 'third', 'fourth', 'fifth'];
  for (const text of texts) {
    expect((await post(personId, { text })).status).toBe(201);
    // Distinct milliseconds, so the order under test is the order of writing.
    await sleep(3);
  }
  expect((await page(personId)).data.map((note) => note.text)).toEqual([...texts].reverse());

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const next = await page(personId, query);
    seen.push(...next.data.map((note) => note.text));
    cursor = next.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 10);
  expect(seen).toEqual([...texts].reverse());
  expect(pages).toBe(3);
});

test('text must be 1 to 5000 characters once trimmed; nothing else is accepted', async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  for (const body of [
    { text: '   ' },
    { text: 'x'.repeat(MAX_NOTE_LENGTH + 1) },
    {},
    { text: 5 },
  ]) {
    const { status, body: error } = await post(legalEntityId, body);
    expect(status, JSON.stringify(body).slice(0, 40)).toBe(400);
    expect(errorEnvelopeSchema.parse(error).errors?.[0]?.field).toBe('text');
  }
  const extra = await post(legalEntityId, { text: 'hello', author: 'someone else' });
  expect(extra.status).toBe(400);
  expect(errorEnvelopeSchema.parse(extra.body).errors?.[0]?.field).toBe('author');
  expect((await post(legalEntityId, { text: 'x'.repeat(MAX_NOTE_LENGTH) })).status).toBe(201);

  const form = await server.request(notesPath(legalEntityId), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'text=hello',
    auth: 'token',
  });
  expect(form.status).toBe(415);
  expect((await page(legalEntityId)).data).toHaveLength(1);
});

test('an unknown entity is 404, a bad cursor or limit 400, no credentials 401', async () => {
  expect((await post('no-such-entity', { text: 'hello' })).status).toBe(404);
  expect((await server.request(notesPath('no-such-entity'), { auth: 'token' })).status).toBe(404);
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  for (const query of ['?cursor=not-a-cursor', '?limit=0', '?limit=201', '?order=asc']) {
    const { status } = await server.request(notesPath(legalEntityId, query), { auth: 'token' });
    expect(status, query).toBe(400);
  }
  expect((await server.request(notesPath(legalEntityId), { auth: 'none' })).status).toBe(401);
});

test('in gateway mode the notes stay in the gateway, not upstream', async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  expect((await post(legalEntityId, { text: 'Where am I kept?' })).status).toBe(201);
  const upstreamRows = await server.app.services.db
    .selectFrom('notes')
    .select('id')
    .where('entity_id', '=', legalEntityId)
    .execute();
  expect(upstreamRows).toHaveLength(server.mode === 'gateway' ? 0 : 1);
});

test("a note carries its author's display name while the account exists here, else null", async () => {
  const { legalEntityId } = await insertLegalEntity(server.app.services.db);
  await server.app.services.db
    .updateTable('accounts')
    .set({ display_name: 'Rhea Reviewer' })
    .where('username', '=', server.account.username)
    .execute();
  try {
    const { body } = await post(legalEntityId, { text: 'Named.' });
    // A gateway knows only the username: the accounts are the identity service's.
    const expected = server.mode === 'gateway' ? null : 'Rhea Reviewer';
    expect(noteResponseSchema.parse(body).data.authorName).toBe(expected);
    expect((await page(legalEntityId)).data[0]?.authorName).toBe(expected);
    if (server.mode === 'embedded') {
      // An account deleted since (or never held here) leaves the username alone.
      await server.app.services.db
        .updateTable('notes')
        .set({ author: 'former-colleague' })
        .where('entity_id', '=', legalEntityId)
        .execute();
      expect((await page(legalEntityId)).data[0]).toMatchObject({
        author: 'former-colleague',
        authorName: null,
      });
    }
  } finally {
    // The server is shared by the file's tests: the account gets its own name back.
    await server.app.services.db
      .updateTable('accounts')
      .set({ display_name: server.account.username })
      .where('username', '=', server.account.username)
      .execute();
  }
});
