import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { createApp } from '../app.ts';
import { createAccount } from '../auth/accounts.ts';
import { loadConfig } from '../env.ts';
import { testEngine } from '../testing/harness.ts';

const isRoot = process.getuid?.() === 0;

/** Fills the file system of `dir` to the last byte; the file to delete to free it again. */
function fill(dir: string): string {
  const filler = path.join(dir, 'filler');
  const descriptor = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          fs.writeSync(descriptor, chunk, 0, size);
        } catch (error) {
          if ((error as { code?: string }).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(descriptor);
  }
  return filler;
}

// PostgreSQL's disk_full (53100) is mapped by the classifier's unit test (database-faults.test.ts):
// filling the disk under the test server would stop every other test file using it.
const name =
  testEngine !== 'sqlite'
    ? 'a full disk (skipped on PostgreSQL: its disk_full is mapped in database-faults.test.ts)'
    : isRoot
      ? 'SQLite on a full disk: 507 in words, /healthz degraded, one log line, and recovery'
      : 'SQLite on a full disk (skipped: mounting a small tmpfs as DATA_DIR needs root)';

function logLine(line: string): { level: number; msg: string } {
  return JSON.parse(line) as { level: number; msg: string };
}

test.skipIf(testEngine !== 'sqlite' || !isRoot)(name, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dataDir]);
  const lines: string[] = [];
  const app = await createApp(
    { ...loadConfig({ DATA_DIR: dataDir }), staticDir: undefined },
    { logger: { level: 'info', destination: { write: (line) => lines.push(line) } } },
  );
  try {
    const { apiKey } = await createAccount(app.services.db, 'full-disk-reviewer');
    const list = () =>
      app.inject({
        method: 'GET',
        url: '/api/v2/entities?limit=1',
        headers: { 'X-API-Key': apiKey },
      });
    expect((await list()).statusCode).toBe(200);
    // An empty WAL: the next commit must grow a file, as on a disk that filled under load.
    const other = new SQLite(path.join(dataDir, 'kyc-desk.sqlite'));
    other.exec('create table filler (bytes blob)');
    other.pragma('wal_checkpoint(TRUNCATE)');
    other.close();
    const filler = fill(dataDir);
    const before = lines.length;

    for (let attempt = 0; attempt < 10; attempt += 1) {
      const answer = await list();
      expect(answer.statusCode).toBe(507);
      expect(errorEnvelopeSchema.parse(answer.json()).message).toMatch(
        /^The server's storage is full/,
      );
    }
    // A write too large for the page cache fails mid-statement and SQLite rolls it back itself:
    // the caller hears SQLITE_FULL, not "cannot rollback - no transaction is active".
    const large = app.services.db.transaction().execute(async (trx) => {
      await sql`insert into filler (bytes) values (${Buffer.alloc(3_000_000)})`.execute(trx);
    });
    await expect(large).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    const degraded = await app.inject({ method: 'GET', url: '/healthz' });
    expect({ status: degraded.statusCode, body: degraded.json<unknown>() }).toEqual({
      status: 200,
      body: {
        status: 'degraded',
        reason: 'storage full',
        mode: 'embedded',
        engine: 'sqlite',
        database: 'full',
      },
    });
    const during = lines.slice(before).map(logLine);
    expect(during.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([
      'storage full: writes are refused until space is freed',
    ]);

    fs.rmSync(filler);
    const recovered = await app.inject({ method: 'GET', url: '/healthz' });
    expect(recovered.json()).toMatchObject({ status: 'ok' });
    expect((await list()).statusCode).toBe(200);
    const after = lines.slice(before).map(logLine);
    expect(after.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([
      'storage full: writes are refused until space is freed',
      'storage writable again',
    ]);
    const check = new SQLite(path.join(dataDir, 'kyc-desk.sqlite'), { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  } finally {
    await app.close();
    execFileSync('umount', [dataDir]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
