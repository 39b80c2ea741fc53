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
