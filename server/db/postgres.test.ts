import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { openDatabase } from './database.ts';
import type { OnConnectionLost } from './postgres.ts';

test.runIf(testEngine === 'postgres')(
  'an idle connection the server ends is reported and replaced, and the process goes on',
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-pool-'));
    const databaseUrl = await newTestDatabaseUrl();
    if (databaseUrl === undefined) throw new Error('no test database');
    const lost: Parameters<OnConnectionLost>[0][] = [];
    const { db } = await openDatabase(dataDir, databaseUrl, (report) => lost.push(report));
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // Two queries at once leave two connections idle in the pool.
      await Promise.all([sql`select pg_sleep(0.05)`.execute(db), sql`select 1`.execute(db)]);
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      expect(rowCount).toBe(2);
      await vi.waitFor(() => expect(lost).toHaveLength(2));
      expect(lost.map((report) => report.code)).toEqual(['57P01', '57P01']);
      expect(lost[0]?.message).toMatch(/terminating connection/);

      const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(db);
      expect(rows).toEqual([{ answer: 42 }]);
    } finally {
      await admin.end();
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabaseUrl(databaseUrl);
    }
  },
);

test.runIf(testEngine === 'postgres')(
  'a connection ended while checked out fails its own transaction only, and the pool goes on',
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-pool-'));
    const databaseUrl = await newTestDatabaseUrl();
    if (databaseUrl === undefined) throw new Error('no test database');
    const lost: Parameters<OnConnectionLost>[0][] = [];
    const { db } = await openDatabase(dataDir, databaseUrl, (report) => lost.push(report));
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const cut = db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Ended between two statements: no query is active, so only a listener hears it.
        await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
        await vi.waitFor(() => expect(lost).toHaveLength(1));
        await sql`select 1`.execute(trx);
      });
      await expect(cut).rejects.toThrow();
      expect(lost[0]?.code).toBe('57P01');

      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          sql<{ n: number }>`select ${index}::int as n`.execute(db),
        ),
      );
      expect(answers.map(({ rows }) => rows[0]?.n)).toEqual(
        Array.from({ length: 12 }, (_, i) => i),
      );
    } finally {
      await admin.end();
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabaseUrl(databaseUrl);
    }
  },
);

test.runIf(testEngine === 'postgres')(
  'every transaction holds the write lock from its begin, so a second one starts its work only after the first commits',
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-pool-'));
    const databaseUrl = await newTestDatabaseUrl();
    if (databaseUrl === undefined) throw new Error('no test database');
    const { db } = await openDatabase(dataDir, databaseUrl);
    try {
      const heldLocks = sql<{
        n: number;
      }>`select count(*) as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and granted`;
      const events: string[] = [];
      const first = db.transaction().execute(async (trx) => {
        events.push('first begins');
        expect((await heldLocks.execute(trx)).rows[0]?.n).toBe(1);
        await sql`select pg_sleep(0.2)`.execute(trx);
        events.push('first ends');
      });
      await vi.waitFor(() => expect(events).toContain('first begins'));
      const second = db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          events.push('second begins');
          expect((await heldLocks.execute(trx)).rows[0]?.n).toBe(1);
        });
      await Promise.all([first, second]);
      expect(events).toEqual(['first begins', 'first ends', 'second begins']);
      // Neither left its lock behind on the pooled connections. In this database only: pg_locks
      // shows the whole cluster, where test files running beside this one hold theirs.
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from pg_locks where locktype = 'advisory'
        and database = (select oid from pg_database where datname = current_database())`.execute(
        db,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabaseUrl(databaseUrl);
    }
  },
);
