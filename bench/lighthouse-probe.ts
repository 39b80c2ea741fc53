/**
 * Lighthouse alone on the demo data, for finding what a page spends (reads the built console and
 * server: `npm run build` first). Reports and each run's audits go to bench/results/tmp/lighthouse/.
 * `--compare DIR` audits a second build (its own dist/ and dist-server/) beside this one, run by
 * run, so both see the same load.
 *
 * With `--compare` the figures are kept in bench/results/<start time>-lighthouse-compare.json/.md,
 * and each build's reports per run in bench/results/tmp/lighthouse/<build>/run-<n>/.
 *
 * Usage: tsx bench/lighthouse-probe.ts [runs] [--compare DIR] [--mobile]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  LIGHTHOUSE_REPORT_DIR,
  runLighthouseBench,
  type LighthousePageResult,
  type Preset,
} from './lighthouse-bench.ts';
import { startProbeServer } from './page-probe-support.ts';
import { median } from './report.ts';

const { values: options, positionals } = parseArgs({
  // --mobile: the mobile preset alone (half the time), for the phone figures of issue 36.
  options: {
    compare: { type: 'string' },
    mobile: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
if (options.help) {
  process.stdout.write('Usage: tsx bench/lighthouse-probe.ts [runs] [--compare DIR] [--mobile]\n');
  process.exit(0);
}
const runs = Number(positionals[0] ?? 1);
const presets: Preset[] = options.mobile ? ['mobile'] : ['mobile', 'desktop'];
const startedAt = new Date();

async function startBuild(label: string, cwd: string) {
  const probe = await startProbeServer(cwd, 'lighthouse');
  return {
    label,
    ...probe,
    fixture: { dataDir: probe.dataDir, databaseUrl: undefined, entities: 20, ...probe.account },
  };
}

const builds = [
  ...(options.compare ? [['before', path.resolve(options.compare)] as const] : []),
  [options.compare ? 'after' : 'this build', process.cwd()] as const,
];
const started: Awaited<ReturnType<typeof startBuild>>[] = [];
try {
  for (const [label, cwd] of builds) started.push(await startBuild(label, cwd));
  const measured: Record<string, LighthousePageResult[]> = {};
  // One run of each build in turn, so a burst of load falls on both.
  for (let run = 0; run < runs; run += 1) {
    for (const build of started) {
      const result = await runLighthouseBench(build.server.baseUrl, build.fixture, 1, presets);
      // Each build's and run's reports kept apart (the bench writes one set and overwrites it).
      const kept = path.join(
        LIGHTHOUSE_REPORT_DIR,
        build.label.replace(/ /g, '-'),
        `run-${String(run + 1)}`,
      );
      fs.mkdirSync(kept, { recursive: true });
      for (const file of fs.readdirSync(LIGHTHOUSE_REPORT_DIR)) {
        if (/\.(html|json)$/.test(file)) {
          fs.renameSync(path.join(LIGHTHOUSE_REPORT_DIR, file), path.join(kept, file));
        }
      }
      for (const preset of presets) {
        for (const [page, figures] of Object.entries(result[preset])) {
          (measured[`${build.label} ${preset} ${page}`] ??= []).push(...figures.runs);
        }
      }
    }
  }
  const lines = [`Median of ${String(runs)} (${startedAt.toISOString()}):`];
  for (const [key, results] of Object.entries(measured)) {
    const pick = (value: (result: LighthousePageResult) => number) => median(results.map(value));
    lines.push(
      `${key}: ${String(pick((r) => r.performance))} (${results.map((r) => r.performance).join(', ')}; LCP ${String(pick((r) => r.lcpMs))} ms, TBT ${String(pick((r) => r.tbtMs))} ms, blocking in the trace: wall ${String(pick((r) => r.observedBlockingMs.wall))} ms, CPU ${String(pick((r) => r.observedBlockingMs.cpu))} ms, accessibility ${String(Math.min(...results.map((r) => r.accessibility)))})`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (options.compare) {
    const base = path.join(
      'bench',
      'results',
      `${startedAt.toISOString().replace(/:/g, '-').slice(0, 19)}-lighthouse-compare`,
    );
    fs.writeFileSync(`${base}.json`, `${JSON.stringify({ startedAt, runs, measured }, null, 2)}\n`);
    fs.writeFileSync(
      `${base}.md`,
      `# Lighthouse, before and after\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`,
    );
  }
} finally {
  for (const build of started) await build.stop();
}
