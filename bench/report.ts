import { backupMarkdown, type BackupPart } from './backup-bench.ts';
import type { LighthouseMedian } from './lighthouse-bench.ts';

interface Row {
  name: string;
  connections: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number };
  serverPeakRssMb: number | null;
  /** Absent from results recorded before it was measured. */
  cpuMsPerRequest?: Record<string, number | null>;
  non2xx: number;
  loadAverage: number[];
}

interface Seed {
  entities: number;
  seconds: number;
  peakRssMb: number;
  databaseMb: number | null;
  loadAverage: number[];
}

interface GatewayRatio {
  throughput: number | null;
  addedP50Ms: number;
  cpuBound?: number | null;
  bareRelay?: number | null;
  vsBareRelay?: number | null;
  coresBusy?: { direct: number | null; gateway: number | null };
}

interface ServerPart {
  engine?: string;
  results: Row[];
  instances?: Row[];
  gateway?: Row[];
  ratios: Record<string, unknown> & {
    uncachedListVsLimit?: number | null;
    gatewayVsDirect?: Record<string, GatewayRatio>;
  };
  serverPeakRssMb: number;
  auditWrite?: { samples: number; p50Ms: number; p95Ms: number };
  reviewQueue?: { overall: { p50: number; p95: number }; worstCaseP95: number };
  entityIndex?: { overall: { p50: number; p95: number }; worstCaseP95: number };
}

interface ScalePart {
  entities: number;
  baseEntities: number;
  seed: Seed;
  /** The scale scenarios at the base size, measured just before `server`. */
  base: ServerPart;
  server: ServerPart;
  p95VsBase: Record<string, number | null>;
  companySearchP95Ratio?: number | null;
  serverPeakRssMb: { base: number; scaled: number };
}

/** The middle value, or the mean of the two middle values of an even count; 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** `server 0.81 + load generator 0.3 ms`: where each request's CPU time went. */
export function cpuText(perRequest: Record<string, number | null>): string {
  return `${Object.entries(perRequest)
    .map(([process, ms]) => `${process} ${String(ms ?? '?')}`)
    .join(' + ')} ms`;
}

function seedLine(label: string, seed: Seed): string {
  return `Seed (${label}): ${String(seed.entities)} legal entities in ${String(seed.seconds)} s, peak RSS ${String(seed.peakRssMb)} MB, database ${String(seed.databaseMb ?? '?')} MB (load ${seed.loadAverage.join(' ')})`;
}

function serverTable(title: string, part: ServerPart): string[] {
  const lines = [
    `### ${title}`,
    '',
    '| scenario | conn. | req/s | p50 ms | p95 ms | p99 ms | peak RSS MB | CPU per request | non-2xx | load (1/5/15 min) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of [...part.results, ...(part.instances ?? []), ...(part.gateway ?? [])]) {
    lines.push(
      `| ${row.name} | ${String(row.connections)} | ${String(row.requestsPerSecond)} | ${String(row.latencyMs.p50)} | ${String(row.latencyMs.p95)} | ${String(row.latencyMs.p99)} | ${String(row.serverPeakRssMb ?? '?')} | ${row.cpuMsPerRequest ? cpuText(row.cpuMsPerRequest) : '?'} | ${String(row.non2xx)} | ${row.loadAverage.join(' ')} |`,
    );
  }
  lines.push(
    '',
    `Ratios: \`${JSON.stringify(part.ratios)}\`; server peak RSS ${String(part.serverPeakRssMb)} MB`,
    '',
  );
  if (part.ratios.uncachedListVsLimit !== undefined) {
    lines.push(
      `Cache-missing list page against the in-memory limit: ${String(part.ratios.uncachedListVsLimit ?? '?')}×`,
      '',
    );
  }
  if (part.auditWrite) {
    lines.push(
      `Audit write per request (in-process, ${String(part.auditWrite.samples)} appends): p50 ${String(part.auditWrite.p50Ms)} ms, p95 ${String(part.auditWrite.p95Ms)} ms (budget: under 0.5 ms p50)`,
      '',
    );
  }
  if (part.reviewQueue) {
    lines.push(
      `Review queue, every window and filter, one request at a time: p50 ${String(part.reviewQueue.overall.p50)} ms, p95 ${String(part.reviewQueue.overall.p95)} ms, worst case p95 ${String(part.reviewQueue.worstCaseP95)} ms (target: p95 under 20 ms)`,
      '',
    );
  }
  if (part.entityIndex) {
    lines.push(
      `Entity index, every sort and order under random filters, one request at a time, totals not kept: p50 ${String(part.entityIndex.overall.p50)} ms, p95 ${String(part.entityIndex.overall.p95)} ms, worst case p95 ${String(part.entityIndex.worstCaseP95)} ms (target: p95 under 50 ms)`,
      '',
    );
  }
  const gateway = part.ratios.gatewayVsDirect;
  if (gateway) {
    const ownCpuMs = (rowName: string) =>
      String(part.gateway?.find((row) => row.name === rowName)?.cpuMsPerRequest?.server ?? '?');
    lines.push(
      '| through the gateway | throughput gateway/direct | added p50 ms | bound by CPU per request | bare relay/direct | gateway/bare relay | cores busy: direct, gateway | CPU ms a request: gateway, bare relay |',
      '|---|---|---|---|---|---|---|---|',
      ...Object.entries(gateway).map(
        ([name, ratio]) =>
          `| ${name} | ${String(ratio.throughput ?? '?')} | ${String(ratio.addedP50Ms)} | ${String(ratio.cpuBound ?? '?')} | ${String(ratio.bareRelay ?? '?')} | ${String(ratio.vsBareRelay ?? '?')} | ${String(ratio.coresBusy?.direct ?? '?')}, ${String(ratio.coresBusy?.gateway ?? '?')} | ${ownCpuMs(`gateway: ${name}`)}, ${ownCpuMs(`bare relay: ${name}`)} |`,
      ),
      '',
    );
  }
  return lines;
}

interface Recorded {
  quick?: boolean;
  machine?: Record<string, unknown>;
  seed?: Seed;
  seedPostgres?: Seed;
  server?: ServerPart;
  serverPostgres?: ServerPart;
  postgresVsSqlite?: Record<
    string,
    {
      throughput: number | null;
      p95: number | null;
      cpuMsPerRequest?: { sqlite: number | null; postgres: number | null };
    }
  >;
  scale?: ScalePart;
  backup?: BackupPart;
  console?: {
    javaScript: {
      login: JavaScriptLoad & { files: string[] };
      routes: Record<string, JavaScriptLoad & { files: string[] }>;
    };
    listToHundredRowsMs: { median: number; runs: number[] };
    viewer: {
      fileMb: number;
      clickToPreviewMs: { first: number; median: number };
      longestTaskMs: number;
      longestTaskFirstOpenMs: number;
      tracedOverTwentyMore: {
        longestWallMs: number;
        thatTaskCpuMs: number;
        longestCpuMs: number;
        over100msWall: number;
      };
      heapMb: { afterFirstOpen: number; afterTwentyMore: number };
      liveObjectUrls: { before: number; after: number };
    };
    lighthouse?: {
      lighthouse: string;
      seconds: number;
      runsPerPage: number;
      mobile: Record<string, LighthouseMedian>;
      desktop: Record<string, LighthouseMedian>;
    };
  };
}

/** Script bytes a page loads: raw, gzip (level 9, the bench's own) and the build's brotli files. */
interface JavaScriptLoad {
  kb: number;
  gzipKb: number;
  brotliKb: number;
}

type LighthousePart = NonNullable<NonNullable<Recorded['console']>['lighthouse']>;

/** Targets: mobile ≥ 90 (issue 36), desktop ≥ 95 (issue 15), accessibility 100, on each median. */
function lighthouseTable(lighthouse: LighthousePart) {
  const lines = [
    `### Lighthouse ${lighthouse.lighthouse}, ${String(lighthouse.runsPerPage)} cold runs per page and preset (${String(lighthouse.seconds)} s)`,
    '',
    '| preset | page | performance (median) | runs | accessibility | LCP ms (median) | TBT ms (median) | FCP ms per run | blocking in the trace, wall / CPU ms per run | CLS per run | failed accessibility audits | benchmark index | load (1 min) per run |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const targets = { mobile: 90, desktop: 95 } as const;
  const missed: string[] = [];
  for (const preset of ['mobile', 'desktop'] as const) {
    for (const [page, figures] of Object.entries(lighthouse[preset])) {
      const { runs } = figures;
      const per = (pick: (run: (typeof runs)[number]) => string) => runs.map(pick).join(', ');
      lines.push(
        `| ${preset} | ${page} | ${String(figures.median)} | ${per((run) => `${String(run.performance)}${run.retriedAfter ? ` (retried after ${run.retriedAfter})` : ''}`)} | ${String(figures.accessibility)} | ${String(figures.lcpMs)} | ${String(figures.tbtMs)} | ${per((run) => String(run.fcpMs))} | ${per((run) => `${String(run.observedBlockingMs.wall)} / ${String(run.observedBlockingMs.cpu)}`)} | ${per((run) => String(run.cls))} | ${[...new Set(runs.flatMap((run) => run.failedAccessibilityAudits))].join(', ') || 'none'} | ${per((run) => String(run.benchmarkIndex))} | ${per((run) => String(run.loadAverage[0] ?? '?'))} |`,
      );
      if (figures.median < targets[preset] || figures.accessibility < 100) {
        missed.push(`${preset} ${page}`);
      }
    }
  }
  lines.push(
    '',
    `Targets (median performance ≥ 90 on mobile, ≥ 95 on desktop; accessibility 100): ${
      missed.length === 0 ? 'met on every page' : `missed on ${missed.join(', ')}`
    }`,
    '',
  );
  return lines;
}

/** The results as markdown tables, for the terminal and bench/results/<date>.md. */
export function resultsMarkdown(record: Record<string, unknown>): string {
  const recorded = record as Recorded;
  const lines: string[] = [
    `# Benchmark ${String(record.startedAt)}${recorded.quick ? ' (quick)' : ''}`,
    '',
  ];
  lines.push(`Machine: \`${JSON.stringify(recorded.machine)}\``, '');
  if (recorded.seed) lines.push(seedLine('SQLite', recorded.seed), '');
  if (recorded.seedPostgres) lines.push(seedLine('PostgreSQL', recorded.seedPostgres), '');
  if (recorded.server) lines.push(...serverTable('Server on SQLite', recorded.server));
  if (recorded.serverPostgres) {
    lines.push(...serverTable('Server on PostgreSQL', recorded.serverPostgres));
  }
  if (recorded.postgresVsSqlite) {
    lines.push(
      '### PostgreSQL against SQLite, same scenarios in one run',
      '',
      '| scenario | throughput PG/SQLite | p95 PG/SQLite | server-side CPU ms a request: SQLite, PostgreSQL (server + database) |',
      '|---|---|---|---|',
    );
    for (const [name, ratio] of Object.entries(recorded.postgresVsSqlite)) {
      const cpu = ratio.cpuMsPerRequest;
      lines.push(
        `| ${name} | ${String(ratio.throughput ?? '?')} | ${String(ratio.p95 ?? '?')} | ${String(cpu?.sqlite ?? '?')}, ${String(cpu?.postgres ?? '?')} |`,
      );
    }
    lines.push('');
  }
  if (recorded.scale) {
    const { scale } = recorded;
    lines.push(seedLine(`SQLite, scale`, scale.seed), '');
    lines.push(
      ...serverTable(
        `Server on SQLite at ${String(scale.baseEntities)} legal entities again, just before`,
        scale.base,
      ),
      ...serverTable(`Server on SQLite at ${String(scale.entities)} legal entities`, scale.server),
    );
    lines.push(
      `| scenario | p95 at ${String(scale.entities)} / p95 at ${String(scale.baseEntities)} |`,
      '|---|---|',
      ...Object.entries(scale.p95VsBase).map(
        ([name, ratio]) => `| ${name} | ${String(ratio ?? '?')} |`,
      ),
      '',
      `Company-name search miss, p95 at ${String(scale.entities)} over ${String(scale.baseEntities)}: ${String(scale.companySearchP95Ratio ?? '?')}× (target ≤ 2×)`,
      '',
      `Server peak RSS: ${String(scale.serverPeakRssMb.base)} MB at ${String(scale.baseEntities)}, ${String(scale.serverPeakRssMb.scaled)} MB at ${String(scale.entities)}`,
      '',
    );
  }
  if (recorded.backup) lines.push(...backupMarkdown(recorded.backup));
  if (recorded.console) {
    const { javaScript, listToHundredRowsMs, viewer } = recorded.console;
    lines.push('| console measure | value |', '|---|---|');
    const sizes = (js: JavaScriptLoad) =>
      `${String(js.kb)} KB raw, ${String(js.gzipKb)} KB gzip, ${String(js.brotliKb)} KB brotli`;
    lines.push(
      `| JS before the sign-in page is usable | ${sizes(javaScript.login)} (${javaScript.login.files.join(', ')}) |`,
    );
    for (const [route, js] of Object.entries(javaScript.routes)) {
      lines.push(`| JS for ${route} opened cold, signed in | ${sizes(js)} |`);
    }
    lines.push(
      `| navigation to 100 rendered rows | median ${String(listToHundredRowsMs.median)} ms (${listToHundredRowsMs.runs.join(', ')}) |`,
      `| ${String(viewer.fileMb)} MB PDF: click to visible preview | first ${String(viewer.clickToPreviewMs.first)} ms, median ${String(viewer.clickToPreviewMs.median)} ms |`,
      `| longest main-thread task while opening (longtask observer, wall) | ${String(viewer.longestTaskMs)} ms over 21 opens, ${String(viewer.longestTaskFirstOpenMs)} ms on the first |`,
      `| main thread in a trace of open/close cycles 2–21 | longest ${String(viewer.tracedOverTwentyMore.longestWallMs)} ms wall (${String(viewer.tracedOverTwentyMore.thatTaskCpuMs)} ms CPU); longest CPU ${String(viewer.tracedOverTwentyMore.longestCpuMs)} ms; ${String(viewer.tracedOverTwentyMore.over100msWall)} tasks over 100 ms wall |`,
      `| JS heap after 1 vs 21 opens (after GC) | ${String(viewer.heapMb.afterFirstOpen)} MB → ${String(viewer.heapMb.afterTwentyMore)} MB |`,
      `| live object URLs (main thread) | ${String(viewer.liveObjectUrls.before)} → ${String(viewer.liveObjectUrls.after)} |`,
      '',
    );
    if (recorded.console.lighthouse) lines.push(...lighthouseTable(recorded.console.lighthouse));
  }
  return `${lines.join('\n')}\n`;
}
