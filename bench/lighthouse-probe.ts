/**
 * Lighthouse alone on the demo data, for finding what a page spends (reads the built console and
 * server: `npm run build` first). Usage: tsx bench/lighthouse-probe.ts [runs]. Reports and each
 * run's audits go to bench/results/tmp/lighthouse/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLighthouseBench } from './lighthouse-bench.ts';
import { runScript, startKycServer } from './processes.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-lighthouse-'));
const server = await startKycServer(dataDir);
try {
  const admin = await runScript('server/admin/cli.ts', ['account:create', 'probe', '--json'], {
    DATA_DIR: dataDir,
  });
  const account = JSON.parse(admin.stdout.trim().split('\n').at(-1) ?? '{}') as {
    username: string;
    password: string;
    apiKey: string;
  };
  const result = await runLighthouseBench(
    server.baseUrl,
    { dataDir, databaseUrl: undefined, entities: 20, ...account },
    Number(process.argv[2] ?? 1),
  );
  for (const preset of ['mobile', 'desktop'] as const) {
    for (const [page, figures] of Object.entries(result[preset])) {
      process.stdout.write(
        `${preset} ${page}: ${String(figures.median)} (LCP ${String(figures.lcpMs)} ms, TBT ${String(figures.tbtMs)} ms)\n`,
      );
    }
  }
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
