import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import type { Role } from '../../contract/audit.ts';
import { createAuditTrail } from '../audit/audit-trail.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { readModelRepository } from '../entities/read-model/repository.ts';
import { decisionsRepository } from '../decisions/repository.ts';
import { reviewsRepository } from '../reviews/repository.ts';
import { statsRepository } from '../stats/repository.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { entityDataVersion } from './change-counter.ts';
import { openDatabase } from './database.ts';
import type { Db } from './database.ts';
import { compiledOnce, prepared, runPreparedStatements } from './prepared-statements.ts';

/** The statements this session holds prepared, by their text. */
async function preparedTexts(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    'select statement from pg_prepared_statements',
  );
  return rows.map((row) => row.statement);
}

async function withClient(run: (client: pg.Client) => Promise<void>) {
  const databaseUrl = await newTestDatabaseUrl();
  if (databaseUrl === undefined) throw new Error('no test database');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    runPreparedStatements(client);
    await run(client);
  } finally {
    await client.end();
    await dropTestDatabaseUrl(databaseUrl);
  }
}

/** A migrated database of the engine under test, in a temporary DATA_DIR, for `run` alone. */
async function withDatabase(run: (db: Db) => Promise<void>) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-prepared-'));
  const databaseUrl = await newTestDatabaseUrl();
  const { db } = await openDatabase(dataDir, databaseUrl);
  try {
    await run(db);
  } finally {
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
    await dropTestDatabaseUrl(databaseUrl);
  }
}

test.runIf(testEngine === 'postgres')(
  'a statement marked prepared runs by name on the connection; an unmarked one does not',
  () =>
    withClient(async (client) => {
      await client.query('create table marks (id int primary key, label text)');
      await client.query("insert into marks values (1, 'one'), (2, 'two')");
      const markedText = 'select label from marks where id = $1';
      const unmarkedText = 'select label from marks where id <> $1';
      prepared(CompiledQuery.raw(markedText));

      for (const id of [1, 2, 1]) {
        const { rows } = await client.query(markedText, [id]);
        expect(rows).toEqual([{ label: id === 1 ? 'one' : 'two' }]);
      }
      expect((await client.query(unmarkedText, [1])).rows).toEqual([{ label: 'two' }]);

      const held = await preparedTexts(client);
      expect(held).toEqual([markedText]);
    }),
);

test.runIf(testEngine === 'postgres')(
  'a column added under a prepared select * is answered, prepared again, outside a transaction; inside one the transaction fails as it must',
  () =>
    withClient(async (client) => {
      await client.query('create table widened (id int primary key)');
      await client.query('insert into widened values (1)');
      const text = 'select * from widened where id = $1';
      prepared(CompiledQuery.raw(text));
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);

      await client.query("alter table widened add column note text default 'added'");
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, note: 'added' }]);

      await client.query('alter table widened add column other int default 2');
      await client.query('begin');
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
      await client.query('rollback');
      // The next use prepares it again, now that nothing is aborted.
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, note: 'added', other: 2 }]);
    }),
);

test.runIf(testEngine === 'postgres')(
  "every request's statements (the caller's lookup, the audit append), the overview's and queue's uncached counts and a list page's walk are prepared",
  () =>
    withDatabase(async (db) => {
      const held = await db.connection().execute(async (connection) => {
        const accounts = accountsRepository(connection);
        await accounts.findByApiKeyHash('no such key');
        await accounts.findLiveSessionAccount('no such session', 0);
        const trail = createAuditTrail(connection, () => new Date());
        // The first event starts the chain in a transaction; the second continues it in one statement.
        await trail.record({ actor: 'tester', action: 'entity.read' });
        await trail.record({ actor: 'tester', action: 'entity.read' });
        await statsRepository(connection).assignedTo('tester');
        await decisionsRepository(connection).countWaitingFor('no such account');
        await reviewsRepository(connection).respondedCount({ riskLevel: 'High' });
        await entityDataVersion(connection);
        const list = readModelRepository(connection);
        await list.listPageBounds({
          kind: undefined,
          descending: false,
          limit: 100,
          offset: 0,
          from: undefined,
        });
        const from = { created_at: '', id: '' };
        const keys = { verifications: undefined, documents: undefined };
        await list.listPageJson(
          { kind: undefined, descending: false, limit: 100, from, next: undefined },
          keys,
        );
        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements`.execute(connection);
        return rows.map((row) => row.statement.replace(/\s+/g, ' '));
      });
      expect(held).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^select \*, .* from "accounts" where "api_key_hash" = \$1$/),
          expect.stringMatching(/from "sessions" inner join "accounts"/),
          expect.stringMatching(/^select "seq", "hash" from "audit_events" order by "seq" desc/),
          expect.stringMatching(/^insert into "audit_events" .* values \(\$1,/),
          expect.stringMatching(/^insert into audit_events .* select events\.\* from \(values/),
          expect.stringMatching(/^select count\(\*\) .* from "entities" where "assignee" = \$1$/),
          expect.stringMatching(/from "pending_verifications" where "state" = \$1/),
          expect.stringMatching(
            /"client_update_requests"\."state" = \$1\) and "entities"\."risk_level" = \$2/,
          ),
          expect.stringMatching(
            /^select \(select version from change_counter where id = 1\) as version$/,
          ),
          expect.stringMatching(/^select 'first' as "position"/),
          expect.stringMatching(/^select '\[' \|\| string_agg\(/),
        ]),
      );
      expect(held).toHaveLength(11);
    }),
);

test('a query compiled once answers each call with its own arguments, beside its own constants', () =>
  withDatabase(async (db) => {
    const accounts = accountsRepository(db);
    const account = { displayName: 'A', passwordHash: 'x', createdAt: '2026-01-01T00:00:00Z' };
    await accounts.insert({ ...account, username: 'ana', apiKeyHash: 'ka', role: 'reviewer' });
    await accounts.insert({ ...account, username: 'ben', apiKeyHash: 'kb', role: 'auditor' });
    let builds = 0;
    const enabledByNameAndRole = compiledOnce((on: Db, username: string, role: Role) => {
      builds += 1;
      return on
        .selectFrom('accounts')
        .select('username')
        .where('username', '=', username)
        .where('disabled', '=', 0)
        .where('role', '=', role);
    });
    const usernames = async (username: string, role: Role) =>
      (await db.executeQuery(enabledByNameAndRole(db, username, role))).rows.map(
        (row) => row.username,
      );

    expect(await usernames('ana', 'reviewer')).toEqual(['ana']);
    expect(await usernames('ben', 'auditor')).toEqual(['ben']);
    expect(await usernames('ana', 'auditor')).toEqual([]);
    await accounts.disable((await accounts.findByUsername('ana'))?.id ?? '');
    expect(await usernames('ana', 'reviewer')).toEqual([]);
    expect(builds).toBe(1);
  }));
