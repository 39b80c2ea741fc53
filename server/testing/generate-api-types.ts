/** `npm run generate:api-types`: rewrites server/testing/generated/openapi.d.ts from the served document. */
import fs from 'node:fs/promises';
import { API_TYPES_FILE, renderApiTypes, servedOpenApiDocument } from './api-types.ts';

await fs.writeFile(API_TYPES_FILE, await renderApiTypes(await servedOpenApiDocument()));
process.stdout.write(`Wrote ${API_TYPES_FILE}\n`);
