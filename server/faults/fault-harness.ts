import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { build } from 'esbuild';
import { BUILT_SERVER_ARGS, BUILT_SERVER_ENV } from '../launch.ts';
import { runAdmin } from '../admin/run.ts';
import { legalEntityPayload } from '../testing/test-payloads.ts';

/**
 * The server as a process of its own, bundled and started as `npm start` does: the fault suite
 * kills it, takes its database away and fills its disk, so it cannot live in the test's process.
 */
export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** True until the process exits, for whatever reason. */
  alive(): boolean;
  /** Everything it wrote to stdout and stderr so far (its log at LOG_LEVEL=warn). */
  output(): string;
  /** SIGKILL: no shutdown of any kind. */
  kill9(): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

// One bundle per test file (the unit tests run before `npm run build`), beside dist-server's
// own so its dependencies resolve from node_modules; removed by removeBundle().
const bundleFile = `dist-server/fault-suite-${String(process.pid)}-${crypto.randomUUID().slice(0, 8)}.mjs`;
let bundled: Promise<unknown> | undefined;

/** Deletes this process's server bundle (afterAll). */
export function removeBundle(): void {
  fs.rmSync(bundleFile, { force: true });
}

/** Starts the bundled server/main.ts with `env` (DATA_DIR, DATABASE_URL…) and waits for /healthz 200. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  // The same options as package.json's build:server.
  bundled ??= build({
    entryPoints: ['server/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    outfile: bundleFile,
  });
  await bundled;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${String(port)}`;
  const args = BUILT_SERVER_ARGS.map((arg) => (arg === 'dist-server/main.mjs' ? bundleFile : arg));
  const child: ChildProcess = spawn(process.execPath, args, {
    env: {
      ...process.env,
      ...BUILT_SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const state = { exited: false };
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      state.exited = true;
      resolve();
    }),
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (state.exited) throw new Error(`The server exited while starting:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not start in 90 s:\n${output}`);
    }
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  return {
    baseUrl,
    pid: child.pid ?? 0,
    alive: () => !state.exited,
    output: () => output,
    async kill9() {
      if (!state.exited) child.kill('SIGKILL');
      await exit;
    },
    async stop() {
      if (!state.exited) child.kill('SIGTERM');
      await exit;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the admin CLI in this process (it only opens the database); its exit code and output. */
export async function admin(env: Record<string, string>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** A reviewer account made with the admin CLI before the server starts; its API key. */
export async function createApiKey(env: Record<string, string>): Promise<string> {
  const username = `fault-${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin(env, 'account:create', username, '--json');
  if (created.code !== 0) throw new Error(`account:create failed: ${created.stderr}`);
  return (JSON.parse(created.stdout.trim().split('\n').at(-1) ?? '{}') as { apiKey: string })
    .apiKey;
}

/** One create: 201 with the new entity's id, another status, or a transport error (status 0). */
export async function createLegalEntity(
  baseUrl: string,
  apiKey: string,
): Promise<{ status: number; id: string | undefined; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/api/v2/entities/legal-entities`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
      body: JSON.stringify(legalEntityPayload()),
    });
    const body = (await response.json().catch(() => undefined)) as
      { data?: { id?: string } } | undefined;
    const ms = performance.now() - started;
    return {
      status: response.status,
      id: response.status === 201 ? body?.data?.id : undefined,
      ms,
    };
  } catch {
    // Refused, reset or cut off: no answer, so nothing was acknowledged.
    return { status: 0, id: undefined, ms: performance.now() - started };
  }
}

/** What a load of creates saw: the ids the server acknowledged (201), and every status. */
export interface CreateLoad {
  /** Ids answered 201, in the order the answers arrived. */
  acknowledged: string[];
  /** Count per status; 0 is a transport error (no answer). */
  statuses: Map<number, number>;
  /** Latency of each 201, in ms, with the time it was answered (performance.now()). */
  latencies: { at: number; ms: number }[];
  stop(): Promise<void>;
}

/**
 * Creates legal entities against `baseUrl` until stopped: `workers` loops one create at a time,
 * or, with `perSecond`, creates started at that steady rate whatever the answers take.
 */
export function startCreateLoad(
  baseUrl: string,
  apiKey: string,
  options: { workers: number } | { perSecond: number },
): CreateLoad {
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  const latencies: { at: number; ms: number }[] = [];
  const state = { running: true };
  // Read through a call: the loops check it again after each await.
  const running = () => state.running;
  const pending = new Set<Promise<void>>();
  const one = async () => {
    const { status, id, ms } = await createLegalEntity(baseUrl, apiKey);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (id !== undefined) {
      acknowledged.push(id);
      latencies.push({ at: performance.now(), ms });
    }
  };
  const track = (promise: Promise<void>) => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
  };
  let loops: Promise<void>;
  if ('workers' in options) {
    loops = Promise.all(
      Array.from({ length: options.workers }, async () => {
        while (running()) {
          const promise = one();
          track(promise);
          await promise;
          // A refused connection answers at once: no busy loop while the server is down.
          if ((statuses.get(0) ?? 0) > 0) await sleep(20);
        }
      }),
    ).then(() => undefined);
  } else {
    const interval = 1000 / options.perSecond;
    const started = performance.now();
    loops = (async () => {
      for (let index = 0; running(); index += 1) {
        const due = started + index * interval;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (running()) track(one());
      }
    })();
  }
  return {
    acknowledged,
    statuses,
    latencies,
    async stop() {
      state.running = false;
      await loops;
      await Promise.all([...pending]);
    },
  };
}

/** The acknowledged ids the server cannot read back now (anything but 200). */
export async function unreadable(
  baseUrl: string,
  apiKey: string,
  ids: readonly string[],
): Promise<string[]> {
  const missing: string[] = [];
  for (let start = 0; start < ids.length; start += 8) {
    await Promise.all(
      ids.slice(start, start + 8).map(async (id) => {
        const response = await fetch(`${baseUrl}/api/v2/entities/legal-entities/${id}`, {
          headers: { 'X-API-Key': apiKey },
        });
        await response.arrayBuffer();
        if (response.status !== 200) missing.push(id);
      }),
    );
  }
  return missing;
}

/** Waits until a create succeeds again; the seconds it took, or throws after `timeoutMs`. */
export async function secondsUntilCreatesSucceed(
  baseUrl: string,
  apiKey: string,
  timeoutMs: number,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    if ((await createLegalEntity(baseUrl, apiKey)).status === 201) {
      return (performance.now() - started) / 1000;
    }
    if (performance.now() - started > timeoutMs) {
      throw new Error(`No create succeeded within ${String(timeoutMs)} ms`);
    }
    await sleep(100);
  }
}

/** `PRAGMA integrity_check` of a SQLite file, and which of `ids` its legal_entities lack. */
export function checkSqliteFile(file: string, ids: readonly string[] = []) {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true }) as string;
    const has = sqlite.prepare('select 1 from legal_entities where entity_id = ?').pluck();
    const missing = ids.filter((id) => has.get(id) === undefined);
    const legalEntities = sqlite.prepare('select count(*) from legal_entities').pluck().get();
    return { integrity, missing, legalEntities: Number(legalEntities) };
  } finally {
    sqlite.close();
  }
}

/** The statuses other than 201 a load saw, as `{status: count}`, for readable assertions. */
export function failures(load: CreateLoad): Record<string, number> {
  return Object.fromEntries([...load.statuses].filter(([status]) => status !== 201));
}
