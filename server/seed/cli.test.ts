import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isValidLei } from '../../contract/identifiers.ts';
import { normalisedRegistrationNumber } from '../../contract/search-text.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { loadDocumentKeys } from '../documents/document-keys.ts';
import { loadConfig } from '../env.ts';
import { storedDocumentBytes } from '../testing/fixtures.ts';
import { ensureDemoData } from './demo.ts';

const run = promisify(execFile);
const repositoryRoot = path.resolve(import.meta.dirname, '../..');

async function seed(dataDir: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(
      path.join(repositoryRoot, 'node_modules/.bin/tsx'),
      ['server/seed/cli.ts', ...args],
      { cwd: repositoryRoot, env: { ...process.env, DATA_DIR: dataDir }, timeout: 120_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function count(
  db: Db,
  table:
    | 'entities'
    | 'legal_entities'
    | 'natural_persons'
    | 'entity_links'
    | 'verifications'
    | 'documents'
    | 'document_chunks',
) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-seed-cli-'));
});

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('npm run seed', () => {
  it('writes the requested legal entities and persons with links, verifications and documents', async () => {
    const result = await seed(dataDir, ['--entities', '300', '--persons', '150', '--seed', '7']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Peak RSS: \d+ MB/);

    const { db } = await openDatabase(dataDir);
    try {
      expect(await count(db, 'legal_entities')).toBe(300);
      expect(await count(db, 'natural_persons')).toBe(150);
      expect(await count(db, 'entities')).toBe(450);
      const documents = await db
        .selectFrom('documents')
        .innerJoin('entities', 'entities.id', 'documents.entity_id')
        .select(['documents.entity_id', 'entities.kind'])
        .execute();
      // The default is one document per legal entity; some persons add a proof of identity.
      expect(documents.filter((document) => document.kind === 'legal')).toHaveLength(300);
      expect(
        new Set(documents.filter((d) => d.kind === 'legal').map((d) => d.entity_id)).size,
      ).toBe(300);
      // Demo files are far smaller than a stored piece.
      expect(await count(db, 'document_chunks')).toBe(documents.length);

      const written = /Done in [\d.]+ s: (\d+) rows written/.exec(result.stdout);
      const tables = [
        'entities',
        'legal_entities',
        'natural_persons',
        'entity_links',
        'verifications',
        'documents',
        'document_chunks',
      ] as const;
      let total = 0;
      for (const table of tables) total += await count(db, table);
      expect(Number(written?.[1])).toBe(total);

      const primaries = await db
        .selectFrom('entity_links')
        .select(['legal_entity_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('relationship', '=', 'Primary Contact')
        .groupBy('legal_entity_id')
        .execute();
      expect(primaries.length).toBeGreaterThan(200);
      expect(primaries.every((row) => row.n === 1)).toBe(true);
      const linkedPersons = await db
        .selectFrom('entity_links')
        .select('person_id')
        .distinct()
        .execute();
      expect(linkedPersons).toHaveLength(150);
      expect(await count(db, 'verifications')).toBeGreaterThan(300);

      const companies = await db.selectFrom('legal_entities').select(['glei', 'duns']).execute();
      expect(companies.every((company) => isValidLei(company.glei))).toBe(true);
      expect(companies.every((company) => /^\d{9}$/.test(company.duns))).toBe(true);

      // Every document shares one of two generated files; their metadata still describes the bytes.
      const files = await db
        .selectFrom('documents')
        .select(['documents.id', 'documents.sha256', 'documents.file_size'])
        .execute();
      const keys = loadDocumentKeys(loadConfig({ DATA_DIR: dataDir }), {
        info: () => undefined,
        warn: () => undefined,
      });
      for (const file of files) {
        const bytes = await storedDocumentBytes(db, file.id, keys);
        expect(file.file_size).toBe(bytes.length);
        expect(file.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
      }
      expect(new Set(files.map((file) => file.sha256)).size).toBeLessThanOrEqual(2);
    } finally {
      await db.destroy();
    }
  }, 120_000);

  it('adds to an existing database with the same seed without repeating a registration number', async () => {
    const result = await seed(dataDir, ['--entities', '300', '--persons', '0', '--seed', '7']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { db } = await openDatabase(dataDir);
    try {
      expect(await count(db, 'legal_entities')).toBe(600);
      expect(await count(db, 'natural_persons')).toBe(150);
      const keys = await db
        .selectFrom('legal_entities')
        .select(['registration_number', 'country'])
        .execute();
      const unique = new Set(
        keys.map(
          (key) => `${normalisedRegistrationNumber(key.registration_number)}|${key.country}`,
        ),
      );
      expect(unique.size).toBe(600);
      // Seeded data counts as data: a server started on it loads no demo set.
      const config = loadConfig({ DATA_DIR: dataDir });
      const services = {
        config,
        db,
        signingKey: new Uint8Array(32),
        documentKeys: loadDocumentKeys(config, { info: () => undefined, warn: () => undefined }),
        now: () => new Date(),
      };
      expect(await ensureDemoData(services)).toBeNull();
      expect(await count(db, 'legal_entities')).toBe(600);
    } finally {
      await db.destroy();
    }
  }, 120_000);

  it('prints its usage with --help and refuses a missing or malformed count', async () => {
    const help = await seed(dataDir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--documents-per-entity K');

    const missing = await seed(dataDir, []);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--entities is required');

    const malformed = await seed(dataDir, ['--entities', '12x']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('--entities must be a whole number');
  }, 120_000);
});
