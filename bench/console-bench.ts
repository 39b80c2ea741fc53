import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { insertLargeDocument, paddedPdf } from './large-pdf.ts';
import { median } from './report.ts';
import { runLighthouseBench } from './lighthouse-bench.ts';
import { startKycServer } from './processes.ts';
import type { BenchFixture } from './server-bench.ts';

/** Long tasks and live object URLs of the page's main thread, recorded from the first script on. */
const INSTRUMENTATION = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  window.__liveObjectUrls = new Set();
  const create = URL.createObjectURL.bind(URL);
  const revoke = URL.revokeObjectURL.bind(URL);
  URL.createObjectURL = (object) => { const url = create(object); window.__liveObjectUrls.add(url); return url; };
  URL.revokeObjectURL = (url) => { window.__liveObjectUrls.delete(url); revoke(url); };
`;

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { frames?: { processId: number; parent?: string }[] } };
}

/**
 * The longest top-level task on the page's renderer main thread in a Chromium trace: its wall
 * time and its thread (CPU) time, and the longest CPU time of any task, in ms.
 */
function longestMainThreadTask(trace: Buffer) {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const pid = events
    .find((event) => event.name === 'TracingStartedInBrowser')
    ?.args?.data?.frames?.find((frame) => frame.parent === undefined)?.processId;
  const tid = events.find(
    (event) =>
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.pid === pid &&
      event.args?.name === 'CrRendererMain',
  )?.tid;
  const tasks = events.filter(
    (event) =>
      event.ph === 'X' &&
      event.pid === pid &&
      event.tid === tid &&
      (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask'),
  );
  if (tasks.length === 0) throw new Error('The trace has no main-thread tasks of the page.');
  const ms = (microseconds: number | undefined) => round((microseconds ?? 0) / 1000);
  const byWall = tasks.reduce((a, b) => ((b.dur ?? 0) > (a.dur ?? 0) ? b : a));
  return {
    tasks: tasks.length,
    longestWallMs: ms(byWall.dur),
    thatTaskCpuMs: ms(byWall.tdur),
    longestCpuMs: ms(Math.max(...tasks.map((task) => task.tdur ?? 0))),
    over100msWall: tasks.filter((task) => (task.dur ?? 0) > 100_000).length,
  };
}

interface ScriptLoad {
  file: string;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const kb = (bytes: number) => round(bytes / 1024);

/** The build's own brotli copy of a served file (what the server sends), else brotli here. */
function brotliBytes(pathname: string, body: Buffer): number {
  const built = path.join('dist', `${pathname}.br`);
  if (fs.existsSync(built)) return fs.statSync(built).size;
  return zlib.brotliCompressSync(body).length;
}

/** Records every script the page loads, gzip-compressed here at level 9 as a static server would. */
function recordScripts(page: Page): ScriptLoad[] {
  const loads: ScriptLoad[] = [];
  page.on('response', (response) => {
    // A 304 (the browser revalidated its cached copy) has no body to measure.
    if (response.request().resourceType() !== 'script' || response.status() === 304) return;
    void response.body().then((body) => {
      const file = new URL(response.url()).pathname;
      loads.push({
        file,
        bytes: body.length,
        gzipBytes: zlib.gzipSync(body, { level: 9 }).length,
        brotliBytes: brotliBytes(file, body),
      });
    });
  });
  return loads;
}

function summarise(loads: ScriptLoad[]) {
  const total = (pick: (load: ScriptLoad) => number) =>
    kb(loads.reduce((sum, load) => sum + pick(load), 0));
  return {
    files: loads.map((load) => load.file).sort(),
    kb: total((load) => load.bytes),
    gzipKb: total((load) => load.gzipBytes),
    brotliKb: total((load) => load.brotliBytes),
  };
}

async function signIn(page: Page, baseUrl: string, fixture: BenchFixture, next: string) {
  await page.goto(`${baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Username').fill(fixture.username);
  await page.getByLabel('Password', { exact: true }).fill(fixture.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}

/**
 * JS of the sign-in page, and of each route opened cold (HTTP cache off) in a signed-in tab: what
 * the page needs before it can show itself, as Lighthouse loads it.
 */
async function measureJavaScript(
  browser: Browser,
  baseUrl: string,
  fixture: BenchFixture,
  entityId: string,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const client = await context.newCDPSession(page);
  await client.send('Network.setCacheDisabled', { cacheDisabled: true });
  const loads = recordScripts(page);
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  const login = summarise(loads);

  await signIn(page, baseUrl, fixture, '/entities');
  const routes: Record<string, ReturnType<typeof summarise>> = {};
  for (const route of ['/entities', `/entities/${entityId}`, '/search', '/legal-entities/new']) {
    loads.length = 0;
    await page.goto(`${baseUrl}${route}`);
    await page.waitForLoadState('networkidle');
    routes[route.replace(entityId, ':id')] = summarise(loads);
  }
  await context.close();
  return { login, routes };
}

export async function runConsoleBench(fixture: BenchFixture, quick: boolean) {
  const pdfMb = 25;
  const fileName = `bench-${String(pdfMb)}mb.pdf`;
  const largeDocument = await insertLargeDocument(
    fixture.dataDir,
    paddedPdf(pdfMb * 1024 * 1024),
    fileName,
  );
  const server = await startKycServer(fixture.dataDir);
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const javaScript = await measureJavaScript(
      browser,
      server.baseUrl,
      fixture,
      largeDocument.entityId,
    );
    process.stdout.write(
      `  JS before sign-in is usable: ${String(javaScript.login.kb)} KB, ${String(javaScript.login.brotliKb)} KB brotli (${String(javaScript.login.files.length)} files)\n`,
    );

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(INSTRUMENTATION);
    const page = await context.newPage();
    await signIn(page, server.baseUrl, fixture, '/entities');

    const listRuns: number[] = [];
    const listLoadAverage = os.loadavg().map((value) => round(value, 2));
    for (let run = 0; run < (quick ? 2 : 5); run += 1) {
      await page.goto(`${server.baseUrl}/entities?limit=100`);
      const renderedAt = await page.waitForFunction(
        () => document.querySelectorAll('table tbody tr').length >= 100 && performance.now(),
        undefined,
        { timeout: 60_000 },
      );
      listRuns.push(round(Number(await renderedAt.jsonValue())));
    }
    process.stdout.write(`  navigation to 100 rendered rows: ${listRuns.join(', ')} ms\n`);

    await page.goto(`${server.baseUrl}/entities/${largeDocument.entityId}`);
    const viewButton = page.getByRole('button', { name: `View ${fileName}` });
    await viewButton.waitFor({ timeout: 60_000 });
    const preview = page.getByTitle(`Preview of ${fileName}`);
    const client = await context.newCDPSession(page);
    await client.send('HeapProfiler.enable');
    const heapMb = async () => {
      await client.send('HeapProfiler.collectGarbage');
      const usage = await client.send('Runtime.getHeapUsage');
      return round(usage.usedSize / 1024 / 1024, 2);
    };
    const liveObjectUrls = () =>
      page.evaluate(
        () => (window as unknown as { __liveObjectUrls: Set<string> }).__liveObjectUrls.size,
      );

    const openAndClose = async () => {
      await page.evaluate(() => {
        (window as unknown as { __longTasks: number[] }).__longTasks = [];
      });
      const clickedAt = await page.evaluate(() => performance.now());
      await viewButton.click();
      await preview.waitFor({ state: 'visible', timeout: 120_000 });
      const visibleAt = await page.evaluate(() => performance.now());
      const longTasks = await page.evaluate(
        () => (window as unknown as { __longTasks: number[] }).__longTasks,
      );
      await page.getByRole('button', { name: 'Close viewer' }).click();
      await preview.waitFor({ state: 'detached' });
      return { ms: round(visibleAt - clickedAt), longestTaskMs: round(Math.max(0, ...longTasks)) };
    };

    const first = await openAndClose();
    const heapBeforeMb = await heapMb();
    const objectUrlsBefore = await liveObjectUrls();
    const runs = [first];
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    for (let run = 0; run < 20; run += 1) runs.push(await openAndClose());
    const mainThreadTasks = longestMainThreadTask(await browser.stopTracing());
    const heapAfterMb = await heapMb();
    const objectUrlsAfter = await liveObjectUrls();
    const viewer = {
      fileName,
      fileMb: pdfMb,
      clickToPreviewMs: { first: first.ms, median: median(runs.map((run) => run.ms)) },
      longestTaskMs: Math.max(...runs.map((run) => run.longestTaskMs)),
      longestTaskFirstOpenMs: first.longestTaskMs,
      // On a shared machine a task's wall time includes waiting for a core; its CPU time does not.
      tracedOverTwentyMore: mainThreadTasks,
      heapMb: { afterFirstOpen: heapBeforeMb, afterTwentyMore: heapAfterMb },
      liveObjectUrls: { before: objectUrlsBefore, after: objectUrlsAfter },
    };
    process.stdout.write(`  viewer: ${JSON.stringify(viewer)}\n`);
    await context.close();
    const chromiumVersion = browser.version();
    // Lighthouse launches its own Chromium; this one would only compete for the 2 cores.
    await browser.close();
    const lighthouse = await runLighthouseBench(server.baseUrl, fixture);
    return {
      chromium: chromiumVersion,
      javaScript,
      listToHundredRowsMs: {
        runs: listRuns,
        median: median(listRuns),
        loadAverage: listLoadAverage,
      },
      viewer,
      lighthouse,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
