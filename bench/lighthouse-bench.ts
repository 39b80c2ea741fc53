import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Page } from 'puppeteer-core';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { blockingMs, navigationTasks, type TraceTaskEvent } from './page-probe-support.ts';
import { median } from './report.ts';
import type { BenchFixture } from './server-bench.ts';

/** Full reports of the last run, for reading an audit's details (git-ignored). */
export const LIGHTHOUSE_REPORT_DIR = path.join('bench', 'results', 'tmp', 'lighthouse');

const FLAGS: Flags = {
  onlyCategories: ['performance', 'accessibility'],
  // The JWT lives in this tab's sessionStorage; the bench clears the HTTP cache itself instead.
  disableStorageReset: true,
  output: 'html',
  logLevel: 'error',
};

/** Lighthouse's presets: its default (a mid-range phone, 4x CPU slowdown, slow 4G, simulated) and desktop. */
const PRESETS = { mobile: undefined, desktop: desktopConfig } satisfies Record<
  string,
  Config | undefined
>;
export type Preset = keyof typeof PRESETS;

/** Runs per page and preset; the median run (by performance score) is the recorded one. */
const RUNS = 3;

export interface LighthousePageResult {
  page: string;
  path: string;
  preset: Preset;
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Main-thread blocking in the recorded trace from navigation start, by wall and by CPU time. */
  observedBlockingMs: { wall: number; cpu: number };
  cls: number;
  failedAccessibilityAudits: string[];
  /** Lighthouse's own measure of this machine's CPU speed at the time (higher is faster). */
  benchmarkIndex: number;
  loadAverage: number[];
  retriedAfter?: string;
  seconds: number;
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

function score(lhr: Result, category: string): number {
  const value = lhr.categories[category]?.score;
  if (value === null || value === undefined) {
    throw new Error(`Lighthouse gave no ${category} score for ${lhr.finalDisplayedUrl}.`);
  }
  return Math.round(value * 100);
}

function metric(lhr: Result, audit: string): number {
  const value = lhr.audits[audit]?.numericValue;
  if (value === undefined)
    throw new Error(`Lighthouse gave no ${audit} for ${lhr.finalDisplayedUrl}.`);
  return value;
}

/** Ids of the accessibility category's audits that scored under 1 (not-applicable ones score null). */
function failedAccessibilityAudits(lhr: Result): string[] {
  const refs = lhr.categories.accessibility?.auditRefs ?? [];
  return refs
    .filter((ref) => {
      const audited = lhr.audits[ref.id];
      return audited?.score !== null && audited?.score !== undefined && audited.score < 1;
    })
    .map((ref) => ref.id);
}

/** Blocking time in the trace Lighthouse recorded, from the start of the navigation to `url`. */
function observedBlockingMs(events: readonly TraceTaskEvent[], url: string) {
  return blockingMs(navigationTasks(events, url).tasks);
}

/** Empties the disk and memory caches, as Lighthouse's own storage reset would, but keeps sessionStorage. */
async function clearHttpCache(page: Page) {
  const session = await page.createCDPSession();
  await session.send('Network.clearBrowserCache');
  await session.send('Network.setCacheDisabled', { cacheDisabled: true });
  await session.send('Network.setCacheDisabled', { cacheDisabled: false });
  await session.detach();
}

/** What the audited page must show once loaded: an element, and optionally text inside it. */
interface Ready {
  selector: string;
  text?: string;
}

/** One Lighthouse navigation of `pathname` in this tab, from an empty HTTP cache. */
async function navigate(page: Page, url: string, preset: Preset) {
  await clearHttpCache(page);
  const result = await lighthouse(url, FLAGS, PRESETS[preset], page);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}.`);
  return result;
}

async function audit(
  page: Page,
  name: string,
  baseUrl: string,
  pathname: string,
  ready: Ready,
  preset: Preset,
): Promise<LighthousePageResult> {
  const started = performance.now();
  const loadAverage = os.loadavg().map((value) => round(value, 2));
  const url = `${baseUrl}${pathname}`;
  let result = await navigate(page, url, preset);
  // Chromium's trace now and then lacks the navigation's start (NO_NAVSTART): one more try.
  const retriedAfter = result.lhr.runtimeError?.code;
  if (retriedAfter) result = await navigate(page, url, preset);
  const { lhr } = result;
  if (lhr.runtimeError) {
    throw new Error(
      `Lighthouse failed twice on ${pathname}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
    );
  }
  // A page that lost the session redirects to sign-in; measuring that would be a false result.
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
  const shown = await page.evaluate(
    ({ selector, text }) => ({
      path: location.pathname,
      ready: [...document.querySelectorAll(selector)].some((element) =>
        element.textContent.includes(text ?? ''),
      ),
      signInForm: document.querySelector('input[type="password"]') !== null,
    }),
    ready,
  );
  if (finalPath !== pathname || shown.path !== pathname || !shown.ready) {
    throw new Error(
      `Lighthouse measured ${lhr.finalDisplayedUrl} for ${pathname} (the page shows ${shown.path}, ${ready.selector} ${shown.ready ? 'present' : 'missing'}).`,
    );
  }
  if (pathname !== '/login' && shown.signInForm) {
    throw new Error(`Lighthouse on ${pathname} ended on a sign-in form.`);
  }
  fs.mkdirSync(LIGHTHOUSE_REPORT_DIR, { recursive: true });
  const report = Array.isArray(result.report) ? result.report.join('\n') : result.report;
  fs.writeFileSync(
    path.join(LIGHTHOUSE_REPORT_DIR, `${preset}-${name.replace(/ /g, '-')}.html`),
    report,
  );
  // The audits that say why (LCP element, bootup, unused JS, render-blocking), for reading later.
  fs.writeFileSync(
    path.join(LIGHTHOUSE_REPORT_DIR, `${preset}-${name.replace(/ /g, '-')}.json`),
    JSON.stringify(lhr.audits),
  );
  const measured: LighthousePageResult = {
    page: name,
    path: pathname,
    preset,
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    fcpMs: round(metric(lhr, 'first-contentful-paint')),
    lcpMs: round(metric(lhr, 'largest-contentful-paint')),
    tbtMs: round(metric(lhr, 'total-blocking-time')),
    observedBlockingMs: observedBlockingMs(result.artifacts.Trace.traceEvents, url),
    cls: round(metric(lhr, 'cumulative-layout-shift'), 3),
    failedAccessibilityAudits: failedAccessibilityAudits(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    loadAverage,
    ...(retriedAfter ? { retriedAfter } : {}),
    seconds: round((performance.now() - started) / 1000, 1),
  };
  process.stdout.write(`  lighthouse ${preset} ${name}: ${JSON.stringify(measured)}\n`);
  return measured;
}

/** A page's runs under one preset and the median run's figures. */
export interface LighthouseMedian {
  page: string;
  /** Median performance score of the runs. */
  median: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  runs: LighthousePageResult[];
}

function medianOf(runs: LighthousePageResult[]): LighthouseMedian {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('No Lighthouse run to take a median of.');
  return {
    page: middle.page,
    median: middle.performance,
    accessibility: Math.min(...runs.map((run) => run.accessibility)),
    lcpMs: median(runs.map((run) => run.lcpMs)),
    tbtMs: median(runs.map((run) => run.tbtMs)),
    runs,
  };
}

/** Signs in through the console's own form in this tab, so its sessionStorage holds the session. */
async function signIn(page: Page, baseUrl: string, fixture: BenchFixture) {
  await page.goto(`${baseUrl}/login?next=%2Fentities`);
  await page.locator('::-p-aria(Username)').fill(fixture.username);
  await page.locator('input[type="password"]').fill(fixture.password);
  await Promise.all([
    page.waitForFunction(() => location.pathname === '/entities'),
    page.locator('::-p-aria(Sign in[role="button"])').click(),
  ]);
}

/** Whether this tab holds a session (the sign-in page stores none until it is used). */
async function signedIn(page: Page) {
  return page
    .evaluate(() => sessionStorage.getItem('kyc-desk.session') !== null)
    .catch(() => false);
}

/** A legal entity from the middle of the list, as the server bench picks its target. */
export async function middleLegalEntity(
  baseUrl: string,
  fixture: Pick<BenchFixture, 'entities' | 'apiKey'>,
) {
  const url = `${baseUrl}/api/v2/entities?type=legal-entities&limit=1&start=${String(fixture.entities / 2)}`;
  const response = await fetch(url, { headers: { 'X-API-Key': fixture.apiKey } });
  if (!response.ok) throw new Error(`${url}: ${String(response.status)}`);
  const [entity] = (
    (await response.json()) as {
      data: { id: string; corporateInformation?: { companyName: string } }[];
    }
  ).data;
  if (!entity?.corporateInformation) throw new Error('No legal entity in the middle of the list.');
  return { id: entity.id, companyName: entity.corporateInformation.companyName };
}

/**
 * Lighthouse (mobile and desktop presets, performance and accessibility, RUNS cold runs each) on
 * the sign-in page, the entity list and one legal entity's page, in Debian's Chromium signed in
 * through the console's form. Keyed by path: `mobile['/entities'].median`.
 */
export async function runLighthouseBench(
  baseUrl: string,
  fixture: BenchFixture,
  runs = RUNS,
  presets: readonly Preset[] = Object.keys(PRESETS) as Preset[],
) {
  const legalEntity = await middleLegalEntity(baseUrl, fixture);
  const { executablePath, args = [] } = chromiumLaunchOptions();
  if (!executablePath)
    throw new Error("Lighthouse runs in Debian's Chromium: /usr/bin/chromium is missing.");
  const started = performance.now();
  const browser = await puppeteer.launch({ executablePath, headless: true, args });
  try {
    // Lighthouse is given this tab, not the port: a tab it opened itself would have no session.
    const page = await browser.newPage();
    const targets = [
      {
        key: '/login',
        name: 'sign-in',
        pathname: '/login',
        ready: { selector: 'input[type="password"]' },
      },
      {
        key: '/entities',
        name: 'entity list',
        pathname: '/entities',
        ready: { selector: 'tbody tr' },
      },
      {
        key: '/entities/:id',
        name: 'legal entity',
        pathname: `/entities/${legalEntity.id}`,
        ready: { selector: 'h1', text: legalEntity.companyName },
      },
    ];
    const measured: Record<Preset, Record<string, LighthousePageResult[]>> = {
      mobile: {},
      desktop: {},
    };
    // Run by run, each preset and page in turn, so a burst of load spreads over all of them.
    for (let run = 0; run < runs; run += 1) {
      for (const preset of presets) {
        for (const target of targets) {
          // Signed out for the sign-in page (it would send a session on to /entities), in for the rest.
          if (target.key === '/login')
            await page
              .evaluate(() => sessionStorage.removeItem('kyc-desk.session'))
              .catch(() => undefined);
          else if (!(await signedIn(page))) await signIn(page, baseUrl, fixture);
          const result = await audit(
            page,
            target.name,
            baseUrl,
            target.pathname,
            target.ready,
            preset,
          );
          (measured[preset][target.key] ??= []).push(result);
        }
      }
    }
    const medians = (preset: Preset) =>
      Object.fromEntries(
        Object.entries(measured[preset]).map(([key, results]) => [key, medianOf(results)]),
      );
    process.stdout.write(`  lighthouse reports: ${LIGHTHOUSE_REPORT_DIR}/\n`);
    return {
      lighthouse: (createRequire(import.meta.url)('lighthouse/package.json') as { version: string })
        .version,
      chromium: await browser.version(),
      runsPerPage: runs,
      mobile: medians('mobile'),
      desktop: medians('desktop'),
      seconds: round((performance.now() - started) / 1000, 1),
    };
  } finally {
    await browser.close();
  }
}
