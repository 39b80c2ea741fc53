/**
 * Writes the OpenAPI document as the embedded server serves it to the path given (for
 * `npm run lint:openapi`): the document is the app's own routes (@fastify/swagger), so one is
 * built on a throwaway DATA_DIR and asked for /api/openapi.json.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app.ts';
import { loadConfig } from '../env.ts';

const output = process.argv[2];
if (!output) throw new Error('Usage: tsx server/http/openapi-cli.ts <output.json>');

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-openapi-'));
try {
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    staticDir: undefined,
  };
  const app = await createApp(config, { logger: false });
  const answer = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  await app.close();
  if (answer.statusCode !== 200) throw new Error(`/api/openapi.json answered ${answer.statusCode}`);
  await fs.mkdir(path.dirname(output), { recursive: true });
  await fs.writeFile(output, `${JSON.stringify(JSON.parse(answer.body), null, 2)}\n`);
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
