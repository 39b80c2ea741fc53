import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQLITE_FILE_NAME } from '../db/maintenance.ts';
import { testEngine } from '../testing/harness.ts';
import {
  admin,
  checkSqliteFile,
  createApiKey,
  failures,
  removeBundle,
  secondsUntilCreatesSucceed,
  sleep,
  startCreateLoad,
  startServerProcess,
  unreadable,
  type ServerProcess,
} from './fault-harness.ts';

/** Runs the real admin CLI as a process of its own, so the load in this process never pauses. */
function adminProcess(env: Record<string, string>, ...argv: string[]) {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string; seconds: number }>((resolve) =>
    child.once('exit', (code) =>
      resolve({ code, output, seconds: (performance.now() - started) / 1000 }),
    ),
  );
}

const round = (value: number) => Number(value.toFixed(2));

// Each fault starts real server processes; on a busy machine a start alone takes seconds.
describe.runIf(testEngine === 'sqlite')(
  'faults on the embedded database (a real server process)',
  { timeout: 120_000 },
  () => {
    const dirs: string[] = [];
    const servers: ServerProcess[] = [];
    const scratch = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-fault-'));
      dirs.push(dir);
      return dir;
    };
    const start = async (env: Record<string, string>) => {
      const server = await startServerProcess(env);
      servers.push(server);
      return server;
    };
    afterAll(removeBundle);
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.kill9()));
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    });

    test('kill -9 during creates: after a restart every acknowledged create is there, the audit trail verifies, integrity ok', async () => {
      const env = { DATA_DIR: scratch() };
      let server = await start(env);
      const apiKey = await createApiKey(env);
      const acknowledged: string[] = [];
      for (let round = 0; round < 2; round += 1) {
        const load = startCreateLoad(server.baseUrl, apiKey, { workers: 4 });
        await vi.waitFor(() => expect(load.acknowledged.length).toBeGreaterThan(15), {
          timeout: 60_000,
        });
        await server.kill9();
        await load.stop();
        acknowledged.push(...load.acknowledged);
        server = await start(env);
        expect(await unreadable(server.baseUrl, apiKey, acknowledged)).toEqual([]);
      }
      await server.stop();
      expect(
        checkSqliteFile(path.join(env.DATA_DIR, SQLITE_FILE_NAME), acknowledged),
      ).toMatchObject({ integrity: 'ok', missing: [] });
      expect(await admin(env, 'audit:verify')).toMatchObject({ code: 0, stderr: '' });
    });

    test('a backup under steady writes finishes in bounded time, writes go on, and the backup restores every write acknowledged before it', async ({
      annotate,
    }) => {
      const env = { DATA_DIR: scratch() };
      const server = await start(env);
      const apiKey = await createApiKey(env);
      const load = startCreateLoad(server.baseUrl, apiKey, { perSecond: 20 });
      try {
        await vi.waitFor(() => expect(load.acknowledged.length).toBeGreaterThan(10), {
          timeout: 60_000,
        });
        const before = [...load.acknowledged];
        const backupFile = path.join(scratch(), 'backup.sqlite');
        const backup = await adminProcess(env, 'db:backup', backupFile);
        const during = load.acknowledged.length - before.length;
        expect(backup).toMatchObject({ code: 0 });
        // The online backup API never finished while writes went on; the CLI's own start under tsx
        // is most of this bound (33 s seen at load average 20 on 2 cores).
        expect(backup.seconds).toBeLessThan(60);
        expect(during).toBeGreaterThan(0);
        await load.stop();
        expect(failures(load)).toEqual({});
        expect(checkSqliteFile(backupFile, before)).toMatchObject({ integrity: 'ok', missing: [] });

        const restoredDir = scratch();
        expect(await admin({ DATA_DIR: restoredDir }, 'db:restore', backupFile)).toMatchObject({
          code: 0,
          stderr: '',
        });
        expect(checkSqliteFile(path.join(restoredDir, SQLITE_FILE_NAME), before)).toMatchObject({
          integrity: 'ok',
          missing: [],
        });
        await annotate(
          `fault: backup under 20 creates/s took ${String(round(backup.seconds))} s; ${String(during)} creates acknowledged meanwhile`,
        );
      } finally {
        await load.stop();
      }
    });

    test('a full tmpfs DATA_DIR: the process stays up, writes fail as storage errors, and once space is freed writes resume with nothing acknowledged lost and integrity ok', async (context) => {
      context.skip(
        process.getuid?.() !== 0,
        'the full-disk fault mounts a tmpfs DATA_DIR: run as root',
      );
      const mountPoint = scratch();
      try {
        await run('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0700', 'tmpfs', mountPoint]);
      } catch (error) {
        context.skip(`cannot mount a tmpfs DATA_DIR here: ${String(error)}`);
      }
      try {
        const env = { DATA_DIR: path.join(mountPoint, 'data') };
        const server = await start(env);
        const apiKey = await createApiKey(env);
        const beforeFull = startCreateLoad(server.baseUrl, apiKey, { workers: 2 });
        await vi.waitFor(() => expect(beforeFull.acknowledged.length).toBeGreaterThan(5), {
          timeout: 60_000,
        });
        await beforeFull.stop();

        const filler = path.join(mountPoint, 'filler');
        fillDisk(filler);
        const whileFull = startCreateLoad(server.baseUrl, apiKey, { workers: 2 });
        await vi.waitFor(() => expect(Object.keys(failures(whileFull)).length).toBeGreaterThan(0), {
          timeout: 60_000,
        });
        await sleep(1000);
        await whileFull.stop();
        expect(server.alive()).toBe(true);
        fs.rmSync(filler);
        const recovery = await secondsUntilCreatesSucceed(server.baseUrl, apiKey, 15_000);
        const acknowledged = [...beforeFull.acknowledged, ...whileFull.acknowledged];
        expect(await unreadable(server.baseUrl, apiKey, acknowledged)).toEqual([]);
        expect(server.alive()).toBe(true);
        await server.stop();
        expect(
          checkSqliteFile(path.join(env.DATA_DIR, SQLITE_FILE_NAME), acknowledged),
        ).toMatchObject({ integrity: 'ok', missing: [] });
        expect(await admin(env, 'audit:verify')).toMatchObject({ code: 0, stderr: '' });
        await context.annotate(
          `fault: full disk: ${JSON.stringify(failures(whileFull))} while full, ${String(whileFull.acknowledged.length)} creates still acknowledged; writes back ${String(round(recovery))} s after space was freed`,
        );
        // faults-a (issue 29 item 3): a full disk is 507 or 503 "The server's storage is full",
        // never a generic 500; this fails on a tree without that change, so it comes last.
        expect(
          Object.keys(failures(whileFull)).filter((status) => !['503', '507'].includes(status)),
        ).toEqual([]);
      } finally {
        await Promise.all(servers.splice(0).map((server) => server.kill9()));
        await run('umount', [mountPoint]);
      }
    });
  },
);

/** Writes to `file` until the file system refuses another byte. */
function fillDisk(file: string) {
  const descriptor = fs.openSync(file, 'w');
  try {
    for (const size of [1024 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          fs.writeSync(descriptor, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(descriptor);
  }
}

function run(command: string, args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${String(code)}: ${stderr}`)),
    );
  });
}
