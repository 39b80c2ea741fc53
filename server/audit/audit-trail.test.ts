import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { auditEventPageSchema, type AuditEvent } from '../../contract/audit.ts';
import { runAdmin } from '../admin/run.ts';
import { auditRepository } from './repository.ts';
import { auditEventOf } from './routes.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import { issueToken } from '../auth/tokens.ts';
import { engineOf } from '../db/engine.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { testPdf } from '../testing/document-files.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ mode: 'embedded' });
});
afterEach(async () => {
  await server.close();
});

const db = () => server.app.services.db;

async function allEvents(): Promise<AuditEvent[]> {
  const rows = await db().selectFrom('audit_events').selectAll().orderBy('seq').execute();
  return rows.map(auditEventOf);
}

async function lastEvent(): Promise<AuditEvent> {
  const event = (await allEvents()).at(-1);
  if (!event) throw new Error('no audit event');
  return event;
}

async function auditorHeaders(): Promise<Record<string, string>> {
  await createAccount(db(), 'audrey', { role: 'auditor' });
  const row = await accountsRepository(db()).findByUsername('audrey');
  if (!row) throw new Error('auditor missing');
  return { Authorization: `Bearer ${(await issueToken(server.app.services, row)).token}` };
}

async function admin(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const env: Record<string, string> = { DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
  if (server.databaseUrl) env.DATABASE_URL = server.databaseUrl;
  const code = await runAdmin(argv, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** What an attacker with the database file could do: the append-only triggers first go. */
async function withoutTriggers(change: () => Promise<unknown>) {
  if (engineOf(db()) === 'postgres') {
    await sql`alter table audit_events disable trigger user`.execute(db());
    await change();
    await sql`alter table audit_events enable trigger user`.execute(db());
  } else {
    await sql`drop trigger audit_events_no_update`.execute(db());
    await sql`drop trigger audit_events_no_delete`.execute(db());
    await change();
  }
}

describe('every action is one event with its actor', () => {
  test('sign-in and a failed sign-in, by the name given', async () => {
    const form = (password: string) =>
      new URLSearchParams({ Username: server.account.username, Password: password });
    const failed = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      body: form('wrong'),
    });
    expect(failed.status).toBe(401);
    expect(await lastEvent()).toMatchObject({
      actor: server.account.username,
      action: 'auth.sign-in-failed',
      outcome: 'failure',
      clientAddress: '127.0.0.1',
    });
    const ok = await server.request('/api/gettoken', {
      method: 'POST',
      auth: 'none',
      body: form(server.account.password),
    });
    expect(ok.status).toBe(200);
    const event = await lastEvent();
    expect(event).toMatchObject({
      actor: server.account.username,
      action: 'auth.sign-in',
      outcome: 'success',
    });
    expect(event.requestId).toMatch(/\S/);
  });

  test('list, search, view, create, documents and client updates', async () => {
    const actor = server.account.username;
    const created = await postLegalEntity(
      server,
      legalEntityPayload({
        supportingDocuments: [
          { fileName: 'deed.pdf', type: 'Other', file: testPdf('Deed').toString('base64') },
        ],
      }),
    );
    expect(created.status).toBe(201);
    const entity = (
      created.body as { data: { id: string; linkedEntities: { entityID: string }[] } }
    ).data;
    expect(await lastEvent()).toMatchObject({
      actor,
      action: 'entity.create',
      entityId: entity.id,
    });

    const steps: [string, Partial<AuditEvent>][] = [
      ['/api/v2/entities?limit=5', { action: 'entity.list', entityId: null }],
      [
        '/api/v2/entities/legal-entities?companyName=acme',
        {
          action: 'entity.search',
          detail: { collection: 'legal-entities', query: { companyName: 'acme' } },
        },
      ],
      ['/api/v2/entities/natural-persons?lastName=love', { action: 'entity.search' }],
      [
        `/api/v2/entities/legal-entities/${entity.id}`,
        { action: 'entity.view', entityId: entity.id },
      ],
      [
        `/api/v2/entities/natural-persons/${entity.linkedEntities[0]?.entityID ?? ''}`,
        { action: 'entity.view', entityId: entity.linkedEntities[0]?.entityID },
      ],
      [`/api/v2/entities/${entity.id}/documents`, { action: 'document.list', entityId: entity.id }],
    ];
    for (const [path, expected] of steps) {
      expect((await server.request(path)).status).toBe(200);
      expect(await lastEvent()).toMatchObject({ actor, outcome: 'success', ...expected });
    }

    const documents = await server.request(`/api/v2/entities/${entity.id}/documents`);
    const documentId = (documents.body as { data: { documentId: string }[] }).data[0]?.documentId;
    expect((await server.request(`/api/v2/documents/${documentId ?? ''}`)).status).toBe(200);
    expect(await lastEvent()).toMatchObject({
      actor,
      action: 'document.view',
      documentId,
      entityId: entity.id,
      detail: { fileName: 'deed.pdf' },
    });

    const update = await server.request(
      `/api/v2/entities/legal-entities/${entity.id}/request-client-update`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          recepientId: entity.linkedEntities[0]?.entityID,
          emailSubject: 'Please update',
          emailMessage: 'Hello',
          configId: 1,
          domain: 'portal.kyc-desk.local',
        }),
      },
    );
    expect(update.status).toBe(202);
    expect(await lastEvent()).toMatchObject({
      actor,
      action: 'client-update.request',
      entityId: entity.id,
    });
  });

  test('a refused request is recorded with its status', async () => {
    expect((await server.request('/api/v2/entities/legal-entities/nope')).status).toBe(404);
    expect(await lastEvent()).toMatchObject({
      action: 'entity.view',
      entityId: 'nope',
      outcome: 'failure',
      detail: { status: 404 },
    });
  });

  test('admin commands are events of admin-cli', async () => {
    expect((await admin('account:create', 'carol', '--role', 'auditor', '--json')).code).toBe(0);
    expect(await lastEvent()).toMatchObject({
      actor: 'admin-cli',
      action: 'account.create',
      detail: { target: 'carol', role: 'auditor' },
    });
    expect((await admin('account:set-role', 'carol', 'reviewer')).code).toBe(0);
    expect(await lastEvent()).toMatchObject({
      action: 'account.set-role',
      detail: { role: 'reviewer' },
    });
  });
});

describe('roles', () => {
  test('the global log is for auditors; an entity’s events are for everyone', async () => {
    await server.request('/api/v2/entities?limit=1');
    const denied = await server.request('/api/v2/audit-events');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ status: 'error' });
    expect((denied.body as { message: string }).message).toContain('auditor');
    expect(await lastEvent()).toMatchObject({ action: 'audit.read', outcome: 'denied' });

    const headers = await auditorHeaders();
    const allowed = await server.request('/api/v2/audit-events?action=entity.list', {
      auth: 'none',
      headers,
    });
    expect(allowed.status).toBe(200);
    const page = auditEventPageSchema.parse(allowed.body);
    expect(page.data.map((event) => event.action)).toEqual(['entity.list']);

    const created = await postLegalEntity(server, legalEntityPayload());
    const id = (created.body as { data: { id: string } }).data.id;
    await server.request(`/api/v2/entities/legal-entities/${id}`);
    const own = await server.request(`/api/v2/entities/${id}/audit-events`);
    expect(own.status).toBe(200);
    expect(auditEventPageSchema.parse(own.body).data.map((event) => event.action)).toEqual([
      'entity.view',
      'entity.create',
    ]);

    // The log names each event's entity, so the console shows names rather than IDs.
    const { companyName } = (
      created.body as { data: { corporateInformation: { companyName: string } } }
    ).data.corporateInformation;
    const named = await server.request(`/api/v2/audit-events?entityId=${id}`, {
      auth: 'none',
      headers,
    });
    const namedEvents = auditEventPageSchema.parse(named.body).data;
    expect(namedEvents.length).toBeGreaterThan(0);
    for (const event of namedEvents) expect(event.entityName).toBe(companyName);
    const unnamed = await server.request('/api/v2/audit-events?action=entity.list&limit=1', {
      auth: 'none',
      headers,
    });
    expect(auditEventPageSchema.parse(unnamed.body).data[0]?.entityName).toBeNull();
  });

  test('paging by cursor has no gaps or repeats, and filters narrow', async () => {
    for (let index = 0; index < 7; index += 1) await server.request('/api/v2/entities?limit=1');
    const headers = await auditorHeaders();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const response = await server.request(
        `/api/v2/audit-events?action=entity.list&limit=3${query}`,
        {
          auth: 'none',
          headers,
        },
      );
      const page = auditEventPageSchema.parse(response.body);
      seen.push(...page.data.map((event) => event.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const bad = await server.request('/api/v2/audit-events?cursor=garbage', {
      auth: 'none',
      headers,
    });
    expect(bad.status).toBe(400);
    const future = await server.request('/api/v2/audit-events?from=2999-01-01', {
      auth: 'none',
      headers,
    });
    expect(auditEventPageSchema.parse(future.body).data).toEqual([]);
  });
});

test('an entity’s events are read through an index that holds only the events naming an entity', async () => {
  const postgres = engineOf(db()) === 'postgres';
  const definition = postgres
    ? sql<{
        text: string;
      }>`select indexdef as text from pg_indexes where indexname = 'audit_events_entity_id'`
    : sql<{
        text: string;
      }>`select sql as text from sqlite_master where name = 'audit_events_entity_id'`;
  const { rows } = await definition.execute(db());
  expect(rows[0]?.text.toLowerCase()).toMatch(/where \(?"?entity_id"? is not null\)?$/);
  if (postgres) return;
  const plan = await queryPlanOf(
    db(),
    auditRepository(db()).pageQuery({ entityId: crypto.randomUUID(), limit: 51 }),
  );
  expect(plan.join('\n')).toContain('USING INDEX audit_events_entity_id ');
});

describe('the chain', () => {
  const chain = () =>
    db().selectFrom('audit_events').select(['seq', 'hash', 'prev_hash']).orderBy('seq').execute();

  async function someEvents() {
    for (let index = 0; index < 5; index += 1) await server.request('/api/v2/entities?limit=1');
    return db().selectFrom('audit_events').select(['seq', 'id']).orderBy('seq').execute();
  }

  test('intact: audit:verify exits 0', async () => {
    await someEvents();
    const result = await admin('audit:verify');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/intact: \d+ events verified/);
  });

  test('the database refuses edits and deletes', async () => {
    const [first] = await someEvents();
    await expect(
      db()
        .updateTable('audit_events')
        .set({ actor: 'mallory' })
        .where('seq', '=', first?.seq ?? 0)
        .execute(),
    ).rejects.toThrow(/cannot be changed/);
    await expect(
      db()
        .deleteFrom('audit_events')
        .where('seq', '=', first?.seq ?? 0)
        .execute(),
    ).rejects.toThrow(/only by retention/);
  });

  test('an edited event is named', async () => {
    const rows = await someEvents();
    const target = rows[2];
    await withoutTriggers(() =>
      db()
        .updateTable('audit_events')
        .set({ actor: 'mallory' })
        .where('seq', '=', target?.seq ?? 0)
        .execute(),
    );
    const result = await admin('audit:verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`broken at event ${String(target?.seq)} (${target?.id ?? ''})`);
    expect(result.stdout).toContain('edited');
  });

  test('a deleted event is found at the one after it', async () => {
    const rows = await someEvents();
    await withoutTriggers(() =>
      db()
        .deleteFrom('audit_events')
        .where('seq', '=', rows[2]?.seq ?? 0)
        .execute(),
    );
    const result = await admin('audit:verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`broken at event ${String(rows[3]?.seq)}`);
  });

  test('reordered events are found', async () => {
    const rows = await someEvents();
    const [a, b] = [rows[1]?.seq ?? 0, rows[2]?.seq ?? 0];
    await withoutTriggers(async () => {
      await db().updateTable('audit_events').set({ seq: -1 }).where('seq', '=', a).execute();
      await db().updateTable('audit_events').set({ seq: a }).where('seq', '=', b).execute();
      await db().updateTable('audit_events').set({ seq: b }).where('seq', '=', -1).execute();
    });
    const result = await admin('audit:verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`broken at event ${String(a)}`);
  });

  test('two servers appending to one database make one chain, every event once', async () => {
    const second = await startTestServer({
      mode: 'embedded',
      dataDir: server.dataDir,
      databaseUrl: server.databaseUrl,
    });
    const listEvents = async () =>
      (
        await db()
          .selectFrom('audit_events')
          .select('id')
          .where('action', '=', 'entity.list')
          .execute()
      ).length;
    const before = await listEvents();
    try {
      // Each server's next batch is built on its own last event, which the other has since
      // followed; the creates' events are written in their transactions meanwhile.
      for (let round = 0; round < 4; round += 1) {
        const [created, ...answers] = await Promise.all([
          postLegalEntity(round % 2 === 0 ? second : server, legalEntityPayload()),
          ...Array.from({ length: 10 }, (_, index) =>
            (index % 2 === 0 ? server : second).request('/api/v2/entities?limit=1'),
          ),
        ]);
        expect(created.status).toBe(201);
        expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      }
    } finally {
      await second.close();
    }
    expect(await listEvents()).toBe(before + 40);
    const seqs = (await chain()).map((row) => row.seq);
    expect(seqs).toEqual(seqs.map((_, index) => (seqs[0] ?? 0) + index));
    expect(await admin('audit:verify')).toMatchObject({ code: 0 });
  });

  test('a batch is built on the stored chain, not on the event this server remembers', async () => {
    const rows = await someEvents();
    const last = rows.at(-1);
    await withoutTriggers(() =>
      db()
        .deleteFrom('audit_events')
        .where('seq', '=', last?.seq ?? 0)
        .execute(),
    );
    await server.request('/api/v2/entities?limit=1');
    const [previous, appended] = (await chain()).slice(-2);
    expect(appended?.seq).toBe(last?.seq);
    expect(appended?.prev_hash).toBe(previous?.hash);
    expect(await admin('audit:verify')).toMatchObject({ code: 0 });
  });

  test('retention prunes behind an anchor and the rest still verifies', async () => {
    await someEvents();
    const before = await allEvents();
    const later = await startTestServer({
      mode: 'embedded',
      dataDir: server.dataDir,
      databaseUrl: server.databaseUrl,
      env: { AUDIT_RETENTION_DAYS: '1' },
      now: () => new Date(Date.now() + 2 * 24 * 60 * 60 * 1000),
    });
    try {
      await later.request('/api/v2/entities?limit=1');
    } finally {
      await later.close();
    }
    const after = await allEvents();
    expect(after.some((event) => before.some((old) => old.id === event.id))).toBe(false);
    expect(after.length).toBeGreaterThan(0);
    const anchor = await db().selectFrom('audit_anchor').selectAll().executeTakeFirstOrThrow();
    expect(anchor.pruned_count).toBeGreaterThanOrEqual(before.length);
    expect(await admin('audit:verify')).toMatchObject({ code: 0 });
  });
});

describe('nothing happens unrecorded', () => {
  async function breakAuditWrites() {
    if (engineOf(db()) === 'postgres') {
      await sql`create function refuse_audit() returns trigger language plpgsql as $$
        begin raise exception 'audit store unavailable'; end $$`.execute(db());
      await sql`create trigger refuse_audit before insert on audit_events
        for each row execute function refuse_audit()`.execute(db());
    } else {
      await sql`create trigger refuse_audit before insert on audit_events begin
        select raise(abort, 'audit store unavailable'); end`.execute(db());
    }
  }

  test('a create whose event cannot be written is a 500 and creates nothing', async () => {
    await breakAuditWrites();
    const payload = legalEntityPayload();
    const created = await postLegalEntity(server, payload);
    expect(created.status).toBe(500);
    const stored = await db()
      .selectFrom('legal_entities')
      .select('entity_id')
      .where('company_name', '=', payload.corporateInformation.companyName)
      .execute();
    expect(stored).toEqual([]);
  });

  test('a read whose event cannot be written is a 500 without the data', async () => {
    await breakAuditWrites();
    const listed = await server.request('/api/v2/entities?limit=1');
    expect(listed.status).toBe(500);
    expect(listed.text).not.toContain('kycMetaData');
  });
});

/** Ten of the export's thousand-row reads and the empty one after them: every boundary it pages across. */
const CSV_EVENTS = 10_000;

describe('CSV export', () => {
  test(`${CSV_EVENTS} events stream as CSV, every one once`, { timeout: 120_000 }, async () => {
    const trail = server.app.auditTrail;
    const batch = Array.from({ length: 2000 }, (_, index) => ({
      actor: 'bulk',
      action: 'entity.view',
      entityId: `e-${String(index)}`,
      detail: { note: index % 7 === 0 ? '=cmd|"x",y' : 'plain' },
    }));
    for (let round = 0; round < CSV_EVENTS / batch.length; round += 1) {
      await trail.recordMany(batch);
    }
    const headers = await auditorHeaders();
    const response = await fetch(`${server.baseUrl}/api/v2/audit-events?format=csv&actor=bulk`, {
      headers,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    // Streamed: no length known up front.
    expect(response.headers.get('content-length')).toBeNull();
    const text = await response.text();
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe(
      'id,at,actor,action,entityId,documentId,outcome,requestId,clientAddress,detail',
    );
    expect(lines).toHaveLength(CSV_EVENTS + 1);
    expect(new Set(lines.slice(1).map((line) => line.slice(0, 36))).size).toBe(CSV_EVENTS);
    // A cell that a spreadsheet would run as a formula is made inert, and quoting holds.
    expect(text).toContain(`"{""note"":""=cmd|\\""x\\"",y""}"`);
    expect(await lastEvent()).toMatchObject({ action: 'audit.export', actor: 'audrey' });
  });
});
