/**
 * The TypeScript types of the served OpenAPI document (openapi-typescript), as committed in
 * `server/testing/generated/openapi.d.ts` for the generated-client test.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import prettier from 'prettier';
import { createApp } from '../app.ts';
import { loadConfig } from '../env.ts';

export const API_TYPES_FILE = path.join(import.meta.dirname, 'generated', 'openapi.d.ts');
export const API_TYPES_COMMAND = 'npm run generate:api-types';

/** The document an embedded server serves: routes register themselves when an app is built. */
export async function servedOpenApiDocument(): Promise<OpenAPI3> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-api-types-'));
  try {
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
      staticDir: undefined,
    };
    const app = await createApp(config, { logger: false });
    const answer = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    await app.close();
    if (answer.statusCode !== 200)
      throw new Error(`/api/openapi.json answered ${answer.statusCode}`);
    return JSON.parse(answer.body) as OpenAPI3;
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The types file's text, formatted as the repository formats it so prettier --check passes. */
export async function renderApiTypes(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document);
  const header = `${COMMENT_HEADER}// Generated from the served OpenAPI document: run \`${API_TYPES_COMMAND}\` after changing a route.\n\n`;
  const options = (await prettier.resolveConfig(API_TYPES_FILE)) ?? {};
  return prettier.format(`${header}${astToString(ast)}`, { ...options, filepath: API_TYPES_FILE });
}
