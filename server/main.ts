import { createApp } from './app.ts';
import { loadConfig } from './env.ts';
import { ensureDemoData } from './seed/demo.ts';
import { demoAccountNotice } from './seed/demo-notice.ts';

async function main() {
  const config = loadConfig();
  const app = await createApp(config);
  // Demo data is for the zero-set-up embedded database, never a team's PostgreSQL.
  const demo = config.upstream || config.databaseUrl ? null : await ensureDemoData(app.services);
  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('127.0.0.1', 'localhost');
  const lines = [`KYC Desk is running at ${url}`, `API reference: ${url}/api/docs`];
  if (demo) lines.push(...demoAccountNotice(demo, process.stdout.isTTY));
  if (config.databaseUrl && !config.upstream) {
    lines.push(
      'On PostgreSQL: no demo data. Create accounts with npm run admin -- account:create <username>',
      '(run with the same DATABASE_URL).',
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
