/**
 * What the console's main thread spends loading a page cold, signed in, on the demo data: CPU time
 * of every main-thread task from the navigation on, blocking time (each task past 50 ms) by wall
 * and CPU, and with `--profile` where the CPU went (V8's sampling profiler in the trace, mapped
 * through dist-sourcemaps/ to packages and source files). Reads the built console and server
 * (`npm run build` first). `--compare DIR` measures a second build beside this one, run by run
 * (DIR holds its own dist/, dist-sourcemaps/ and dist-server/).
 *
 * With `--compare` the figures are kept in bench/results/<start time>-main-thread.json/.md.
 *
 * Usage: tsx bench/main-thread-probe.ts [--runs 5] [--profile] [--slowdown 4] [--compare DIR]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { median } from './report.ts';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { middleLegalEntity } from './lighthouse-bench.ts';
import {
  blockingMs,
  navigationTasks,
  startProbeServer,
  type TraceTaskEvent,
} from './page-probe-support.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
    slowdown: { type: 'string', default: '1' },
    compare: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  process.stdout.write(
    'Usage: tsx bench/main-thread-probe.ts [--runs 5] [--profile] [--slowdown 4] [--compare DIR]\n',
  );
  process.exit(0);
}

const startedAt = new Date();

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  ...(options.profile ? ['disabled-by-default-v8.cpu_profiler'] : []),
];

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface TraceEvent extends TraceTaskEvent {
  id?: string;
  args?: {
    data?: {
      documentLoaderURL?: string;
      cpuProfile?: {
        nodes?: { id: number; parent?: number; callFrame: CallFrame }[];
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
}

const round = (value: number) => Math.round(value);

/** Where a built script's position came from: a package under node_modules, or a source file. */
function sourceBucket(source: string): string {
  const modules = source.lastIndexOf('node_modules/');
  if (modules === -1) return source.replace(/^(\.\.\/)+/, '');
  const rest = source.slice(modules + 'node_modules/'.length).split('/');
  const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? '');
  // Mantine's core is most of the UI: split it by component folder.
  if (name === '@mantine/core') {
    const components = rest.indexOf('components');
    if (components !== -1) return `${name}/${rest[components + 1] ?? ''}`;
  }
  return name;
}

/** Maps a script URL and 0-based position to a bucket through the build's hidden source maps. */
function sourceMapper(buildDir: string) {
  const consumers = new Map<string, SourceMapConsumer | null>();
  return (frame: CallFrame): string => {
    if (!frame.url) return frame.functionName ? `(${frame.functionName})` : '(native)';
    const pathname = new URL(frame.url, 'http://x').pathname;
    if (!pathname.startsWith('/assets/')) return pathname;
    let consumer = consumers.get(pathname);
    if (consumer === undefined) {
      const mapFile = path.join(buildDir, 'dist-sourcemaps', `${pathname}.map`);
      consumer = fs.existsSync(mapFile)
        ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8')) as never)
        : null;
      consumers.set(pathname, consumer);
    }
    if (!consumer) return pathname;
    const original = consumer.originalPositionFor({
      line: frame.lineNumber + 1,
      column: frame.columnNumber,
    });
    return original.source ? sourceBucket(original.source) : pathname;
  };
}

interface PageFigures {
  /** CPU of every main-thread task from the navigation's start to the end of the trace. */
  cpuMs: number;
  wallMs: number;
  blockingWallMs: number;
  blockingCpuMs: number;
  longTasks: number;
  /** Sampled CPU by package or source file, in ms (with --profile). */
  bySource?: Record<string, number>;
}

function analyse(events: TraceEvent[], url: string, mapSource: (frame: CallFrame) => string) {
  const { start, tasks } = navigationTasks(events, url);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0) / 1000;
  const blocking = blockingMs(tasks);
  const figures: PageFigures = {
    cpuMs: round(sum(tasks.map((task) => task.tdur ?? 0))),
    wallMs: round(sum(tasks.map((task) => task.dur ?? 0))),
    blockingWallMs: blocking.wall,
    blockingCpuMs: blocking.cpu,
    longTasks: tasks.filter((task) => (task.dur ?? 0) > 50_000).length,
  };
  if (!options.profile) return figures;
  // V8's samples of the renderer: nodes arrive in chunks, each sample with its time delta.
  const frames = new Map<string, Map<number, CallFrame>>();
  const bySource: Record<string, number> = {};
  for (const event of events) {
    // The chunks come from V8's profiler thread: the renderer's process says whose they are.
    if (event.name !== 'ProfileChunk' || event.pid !== start.pid) continue;
    const profileId = event.id ?? '';
    const nodes = frames.get(profileId) ?? new Map<number, CallFrame>();
    frames.set(profileId, nodes);
    const data = event.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node.callFrame);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    samples.forEach((nodeId, index) => {
      const frame = nodes.get(nodeId);
      if (!frame || frame.functionName === '(idle)') return;
      const bucket = mapSource(frame);
      bySource[bucket] = (bySource[bucket] ?? 0) + Math.max(0, deltas[index] ?? 0) / 1000;
    });
  }
  return { ...figures, bySource };
}

async function signIn(page: Page, baseUrl: string, username: string, password: string) {
  await page.goto(`${baseUrl}/login?next=%2Fentities`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/entities');
}

interface Build {
  label: string;
  dir: string;
}

async function startBuild(build: Build) {
  const probe = await startProbeServer(build.dir, 'main-thread');
  const entity = await middleLegalEntity(probe.server.baseUrl, {
    entities: 20,
    apiKey: probe.account.apiKey,
  }).catch(async (error: unknown) => {
    await probe.stop();
    throw error;
  });
  return { ...build, ...probe, entity, mapSource: sourceMapper(build.dir) };
}

type Started = Awaited<ReturnType<typeof startBuild>>;

/** One cold load of `pathname` in this tab (the session lives in the tab's sessionStorage). */
async function measure(
  browser: Browser,
  page: Page,
  started: Started,
  pathname: string,
  ready: (page: Page) => Promise<unknown>,
) {
  const client = await page.context().newCDPSession(page);
  await client.send('Network.clearBrowserCache');
  if (Number(options.slowdown) > 1)
    await client.send('Emulation.setCPUThrottlingRate', { rate: Number(options.slowdown) });
  const url = `${started.server.baseUrl}${pathname}`;
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  // Deferred renders (transitions, idle work) after the last answer.
  await page.waitForTimeout(1000);
  const trace = await browser.stopTracing();
  await client.detach();
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  return analyse(events, url, started.mapSource);
}

/** Chromium's trace now and then lacks the navigation's start (as Lighthouse finds): one more try. */
async function measureOnce(...args: Parameters<typeof measure>) {
  try {
    return await measure(...args);
  } catch (error) {
    process.stdout.write(`  retrying ${args[3]}: ${String(error)}\n`);
    return measure(...args);
  }
}

const builds: Build[] = [
  ...(options.compare ? [{ label: 'before', dir: path.resolve(options.compare) }] : []),
  { label: options.compare ? 'after' : 'this build', dir: process.cwd() },
];
const started: Started[] = [];
const browser = await chromium.launch({ ...chromiumLaunchOptions(), headless: true });
try {
  for (const build of builds) started.push(await startBuild(build));
  const tabs = new Map<string, Page>();
  for (const build of started) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    await signIn(page, build.server.baseUrl, build.account.username, build.account.password);
    tabs.set(build.label, page);
  }
  const results: Record<string, Record<string, PageFigures[]>> = {};
  for (let run = 0; run < Number(options.runs); run += 1) {
    for (const build of started) {
      const tab = tabs.get(build.label);
      if (!tab) throw new Error(`No signed-in tab for ${build.label}.`);
      const signedOut = await browser.newContext({ viewport: { width: 1366, height: 800 } });
      const pages = {
        '/login': await measureOnce(browser, await signedOut.newPage(), build, '/login', (page) =>
          page.getByRole('button', { name: 'Sign in' }).waitFor(),
        ),
        '/entities': await measureOnce(browser, tab, build, '/entities', (page) =>
          page.locator('tbody tr').first().waitFor(),
        ),
        '/entities/:id': await measureOnce(
          browser,
          tab,
          build,
          `/entities/${build.entity.id}`,
          (page) =>
            page.getByRole('heading', { level: 1, name: build.entity.companyName }).waitFor(),
        ),
      };
      await signedOut.close();
      for (const [page, figures] of Object.entries(pages)) {
        ((results[build.label] ??= {})[page] ??= []).push(figures);
        process.stdout.write(
          `${build.label} ${page} run ${String(run + 1)}: ${JSON.stringify({ ...figures, bySource: undefined })}\n`,
        );
      }
    }
  }
  const lines = [`Median of ${options.runs} (ms), CPU slowdown ${options.slowdown}x:`];
  for (const [label, pages] of Object.entries(results)) {
    for (const [page, runs] of Object.entries(pages)) {
      const pick = (key: keyof Omit<PageFigures, 'bySource'>) =>
        median(runs.map((run) => run[key]));
      lines.push(
        `${label.padEnd(10)} ${page.padEnd(14)} cpu ${String(pick('cpuMs')).padStart(5)}  wall ${String(pick('wallMs')).padStart(5)}  blocking wall ${String(pick('blockingWallMs')).padStart(4)} cpu ${String(pick('blockingCpuMs')).padStart(4)}  long tasks ${String(pick('longTasks'))}`,
      );
      if (!options.profile) continue;
      const totals: Record<string, number> = {};
      for (const run of runs)
        for (const [bucket, ms] of Object.entries(run.bySource ?? {}))
          totals[bucket] = (totals[bucket] ?? 0) + ms / runs.length;
      const top = Object.entries(totals)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30);
      for (const [bucket, ms] of top) lines.push(`    ${ms.toFixed(1).padStart(7)} ms  ${bucket}`);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (options.compare) {
    const base = path.join(
      'bench',
      'results',
      `${startedAt.toISOString().replace(/:/g, '-').slice(0, 19)}-main-thread`,
    );
    fs.writeFileSync(
      `${base}.json`,
      `${JSON.stringify({ startedAt, options, results }, null, 2)}\n`,
    );
    fs.writeFileSync(
      `${base}.md`,
      `# Main thread, before and after\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`,
    );
  }
} finally {
  await browser.close();
  for (const build of started) await build.stop();
}
