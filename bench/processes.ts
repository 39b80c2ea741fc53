import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { BUILT_SERVER_ARGS, BUILT_SERVER_ENV } from '../server/launch.ts';

const tsxLoader = ['--import', 'tsx'];

/** A free loopback port, chosen by the kernel. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a TypeScript script to the end with node + tsx (no npx wrapper); returns its output and wall time. */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ stdout: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...tsxLoader, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${String(code)}:\n${stderr}`);
  return { stdout, seconds: (performance.now() - started) / 1000 };
}

export interface Started {
  child: ChildProcess;
  pid: number;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts a long-running process and waits until `ready` answers 200. */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
  cwd?: string,
): Promise<Started> {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const state = { exited: false };
  child.once('exit', () => (state.exited = true));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (state.exited) throw new Error(`${args.join(' ')} exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not start:\n${output}`);
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const pid = child.pid ?? 0;
  return {
    child,
    pid,
    output: () => output,
    async stop() {
      if (state.exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** The built server on loopback with this DATA_DIR; `cwd` names another build's folder (its dist/). */
export async function startKycServer(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  cwd?: string,
) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${String(port)}`;
  const server = await startProcess(
    process.execPath,
    [...BUILT_SERVER_ARGS],
    {
      ...BUILT_SERVER_ENV,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    `${baseUrl}/healthz`,
    cwd,
  );
  return { ...server, baseUrl };
}

/** Peak resident set (VmHWM) of a process in MB, from /proc; null where /proc is missing. */
export function peakRssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kilobytes = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kilobytes ? Math.round(Number(kilobytes) / 1024) : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms, from /proc; null where it is missing. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** Fields of /proc/<pid>/stat after the command name (in parentheses, it may hold spaces). */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) of a process and its children: its own, what its ended children used (reaped,
 * cutime + cstime) and what the living ones have used so far. For PostgreSQL's postmaster, whose
 * backends come and go with the pool's connections; null where /proc is missing.
 */
export function processTreeCpuMs(rootPid: number): number | null {
  const ticksOf = (fields: string[], from: number, to: number) =>
    fields.slice(from, to + 1).reduce((sum, field) => sum + Number(field), 0);
  let ticks = Number.NaN;
  // A child reaped during the walk would be in neither count (a negative difference in the
  // bench's figures): walk again until the reaped children's time is the same before and after.
  for (let walk = 0; walk < 5; walk += 1) {
    const root = statFields(rootPid);
    if (!root) return null;
    ticks = ticksOf(root, 11, 14);
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = statFields(Number(entry));
      // Field 4 of stat, the parent's pid, is the second after the command name.
      if (fields && Number(fields[1]) === rootPid) ticks += ticksOf(fields, 11, 12);
    }
    const after = statFields(rootPid);
    if (after && ticksOf(after, 13, 14) === ticksOf(root, 13, 14)) break;
  }
  return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null;
}

/** The postmaster's pid: the parent of a backend this asks for its own pid; undefined off Linux. */
export async function postgresServerPid(databaseUrl: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const backend = rows[0]?.pid;
    const parent = backend === undefined ? undefined : statFields(backend)?.[1];
    return parent === undefined ? undefined : Number(parent);
  } finally {
    await client.end();
  }
}

/** Resets VmHWM to the current RSS (Linux: clear_refs 5), so the next reading is that phase's peak. */
export function resetPeakRss(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${String(pid)}/clear_refs`, '5');
  } catch {
    // Not Linux or not permitted: the reading stays the peak since start.
  }
}

export function binPath(packageDir: string, file: string): string {
  return path.resolve('node_modules', packageDir, file);
}
