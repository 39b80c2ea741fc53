/**
 * What the page probes (main-thread-probe.ts, lighthouse-probe.ts) and the Lighthouse bench share:
 * a navigation's main-thread tasks in a Chromium trace, and a built server on a DATA_DIR of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript, startKycServer } from './processes.ts';

/** The fields of a Chromium trace event the task figures read. */
export interface TraceTaskEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { documentLoaderURL?: string } };
}

/**
 * The navigation to `url` (the last one, a trace holding one per load) and every task its main
 * thread ran from then to the end of the trace.
 */
export function navigationTasks<E extends TraceTaskEvent>(
  events: readonly E[],
  url: string,
): { start: E; tasks: E[] } {
  const start = events.findLast(
    (event) => event.name === 'navigationStart' && event.args?.data?.documentLoaderURL === url,
  );
  if (!start) throw new Error(`The trace has no navigation to ${url}.`);
  const tasks = events.filter(
    (event) =>
      event.ph === 'X' &&
      event.name === 'RunTask' &&
      event.pid === start.pid &&
      event.tid === start.tid &&
      event.ts >= start.ts,
  );
  return { start, tasks };
}

/**
 * Blocking time of these tasks (each one's time past 50 ms) in ms, by wall time and by CPU time:
 * Lighthouse simulates its TBT from the wall times, which on a shared machine include waiting for a core.
 */
export function blockingMs(tasks: readonly TraceTaskEvent[]): { wall: number; cpu: number } {
  const past50 = (microseconds: number | undefined) => Math.max(0, (microseconds ?? 0) - 50_000);
  const sumMs = (values: number[]) =>
    Math.round(values.reduce((total, value) => total + value, 0) / 1000);
  return {
    wall: sumMs(tasks.map((task) => past50(task.dur))),
    cpu: sumMs(tasks.map((task) => past50(task.tdur))),
  };
}

export interface ProbeAccount {
  username: string;
  password: string;
  apiKey: string;
}

/**
 * The built server of `buildDir` (its dist/ and dist-server/) on a fresh DATA_DIR with the demo
 * data and one account, `probe`; `stop` ends it and removes the directory.
 */
export async function startProbeServer(buildDir: string, name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kyc-desk-${name}-`));
  const server = await startKycServer(dataDir, {}, buildDir);
  try {
    const admin = await runScript('server/admin/cli.ts', ['account:create', 'probe', '--json'], {
      DATA_DIR: dataDir,
    });
    const account = JSON.parse(admin.stdout.trim().split('\n').at(-1) ?? '{}') as ProbeAccount;
    return {
      dataDir,
      server,
      account,
      async stop() {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
