import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkSqliteFile, sleep, startCreateLoad } from '../server/faults/fault-harness.ts';
import { startKycServer, runScript } from './processes.ts';
import { buildFixture } from './server-bench.ts';

/** Creates a second started while the backup runs: none, a trickle, a busy team's bulk import. */
export const BACKUP_WRITE_RATES = [0, 5, 50] as const;

/** About 200 MB of SQLite (100,000 legal entities made 862 MB). */
const BACKUP_BENCH_ENTITIES = 24_000;

export interface BackupRun {
  writesPerSecond: number;
  backupSeconds: number;
  backupMb: number;
  /** Creates answered 201 between the backup's start and its end. */
  createsDuringBackup: number;
  /** p99 of the creates answered in the seconds before the backup, and during it. */
  createP99BeforeMs: number | null;
  createP99DuringMs: number | null;
  /** Creates acknowledged before the backup started: the backup must hold every one. */
  acknowledgedBeforeBackup: number;
  legalEntitiesInBackup: number;
  integrity: string;
  /** Creates answered with something other than 201 during the run, per status (0: no answer). */
  failedCreates: Record<string, number>;
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

function p99(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? 0);
}

/**
 * `db:backup` (the admin CLI, a process of its own as an operator runs it) of a ~200 MB database
 * while the built server takes 0, 5 and 50 creates a second; each backup is then opened and
 * checked: integrity_check, and every create acknowledged before it started is in it.
 */
export async function runBackupBench(quick: boolean) {
  const entities = quick ? 2_000 : BACKUP_BENCH_ENTITIES;
  const { fixture, seed } = await buildFixture(entities);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-backup-bench-'));
  const server = await startKycServer(fixture.dataDir);
  const env = { DATA_DIR: fixture.dataDir };
  const runs: BackupRun[] = [];
  try {
    for (const writesPerSecond of BACKUP_WRITE_RATES) {
      const load =
        writesPerSecond > 0
          ? startCreateLoad(server.baseUrl, fixture.apiKey, { perSecond: writesPerSecond })
          : undefined;
      try {
        // Creates before the backup: their p99 is the baseline, and the backup must hold them.
        await sleep(quick ? 1000 : 5000);
        const before = load ? [...load.acknowledged] : [];
        const file = path.join(scratch, `backup-${String(writesPerSecond)}.sqlite`);
        const startedAt = performance.now();
        const backup = await runScript('server/admin/cli.ts', ['db:backup', file], env);
        const endedAt = performance.now();
        await load?.stop();
        const latencies = load?.latencies ?? [];
        const during = latencies.filter((row) => row.at >= startedAt && row.at <= endedAt);
        const check = checkSqliteFile(file, before);
        if (check.integrity !== 'ok' || check.missing.length > 0) {
          throw new Error(
            `The backup at ${String(writesPerSecond)} writes/s is unsound: integrity ${check.integrity}, ${String(check.missing.length)} acknowledged creates missing`,
          );
        }
        const run: BackupRun = {
          writesPerSecond,
          backupSeconds: round(backup.seconds, 2),
          backupMb: round(fs.statSync(file).size / 1024 / 1024),
          createsDuringBackup: during.length,
          createP99BeforeMs: p99(
            latencies.filter((row) => row.at < startedAt).map((row) => row.ms),
          ),
          createP99DuringMs: p99(during.map((row) => row.ms)),
          acknowledgedBeforeBackup: before.length,
          legalEntitiesInBackup: check.legalEntities,
          integrity: check.integrity,
          failedCreates: Object.fromEntries(
            [...(load?.statuses ?? [])].filter(([status]) => status !== 201),
          ),
        };
        runs.push(run);
        process.stdout.write(`  backup: ${JSON.stringify(run)}\n`);
        fs.rmSync(file);
      } finally {
        await load?.stop();
      }
    }
  } finally {
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(fixture.dataDir, { recursive: true, force: true });
  }
  return { entities, databaseMb: seed.databaseMb, seedSeconds: seed.seconds, runs };
}

export type BackupPart = Awaited<ReturnType<typeof runBackupBench>>;

/** The backup part as a Markdown table for bench/results/<date>.md. */
export function backupMarkdown(part: BackupPart): string[] {
  return [
    `### db:backup under creates (SQLite, ${String(part.entities)} legal entities, ${String(part.databaseMb ?? '?')} MB)`,
    '',
    '| creates/s | backup s | backup MB | creates during it | create p99 before | create p99 during | acknowledged before, all in the backup | integrity | failed creates by status |',
    '|---|---|---|---|---|---|---|---|---|',
    ...part.runs.map(
      (run) =>
        `| ${String(run.writesPerSecond)} | ${String(run.backupSeconds)} | ${String(run.backupMb)} | ${String(run.createsDuringBackup)} | ${String(run.createP99BeforeMs ?? '-')} ms | ${String(run.createP99DuringMs ?? '-')} ms | ${String(run.acknowledgedBeforeBackup)} | ${run.integrity} | ${JSON.stringify(run.failedCreates)} |`,
    ),
    '',
  ];
}
