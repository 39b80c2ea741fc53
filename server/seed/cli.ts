import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/database.ts';
import { rebuildListRecords } from '../entities/read-model/list-records.ts';
import { renumberNameOrder } from '../entities/read-model/repository.ts';
import { foldEntityIndexCounts } from '../entity-index/service.ts';
import { loadDocumentKeys } from '../documents/document-keys.ts';
import { loadConfig } from '../env.ts';
import { createGenerator, type SeedRows } from './generators.ts';
import { seedRepository } from './seed-repository.ts';

const USAGE = `Usage: npm run seed -- --entities N [--persons M] [--documents-per-entity K] [--seed S]

Adds a large generated data set to the database in DATA_DIR (default ./data), for benchmarks.

  --entities N               legal entities to add (required, at least 1)
  --persons M                natural persons to add, linked to those entities (default N / 2)
  --documents-per-entity K   supporting documents per legal entity (default 1); every document
                             shares one generated PDF or PNG, so the database stays small
  --seed S                   seed of the generator (default: derived from what is already stored)
  --help                     show this text
`;

/** Legal entities per batch (a transaction each past the first load): thousands of rows, in statements of hundreds. */
const ENTITIES_PER_BATCH = 2_500;
const PROGRESS_EVERY = 10_000;

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number) {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min) {
    throw new Error(`--${name} must be a whole number of at least ${String(min)}.`);
  }
  return number;
}

function parseOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      entities: { type: 'string' },
      persons: { type: 'string' },
      'documents-per-entity': { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return null;
  if (values.entities === undefined) throw new Error('--entities is required.');
  const entities = wholeNumber('entities', values.entities, 0, 1);
  return {
    entities,
    persons: wholeNumber('persons', values.persons, Math.floor(entities / 2), 0),
    documentsPerEntity: wholeNumber('documents-per-entity', values['documents-per-entity'], 1, 0),
    seed: values.seed === undefined ? undefined : wholeNumber('seed', values.seed, 0, 0),
  };
}

const secondsSince = (start: number) => ((performance.now() - start) / 1000).toFixed(1);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!options) {
    process.stdout.write(USAGE);
    return;
  }
  const started = performance.now();
  const config = loadConfig();
  const { db } = await openDatabase(config.dataDir, config.databaseUrl);
  try {
    // Quiet: the server names the key file in its warning when it starts.
    const documentKeys = loadDocumentKeys(config, { info: () => undefined, warn: () => undefined });
    const repository = seedRepository(db);
    const fresh = !(await repository.hasEntities());
    const takenRegistrations = await repository.registrationKeys();
    const generator = createGenerator({
      // A second run on the same database draws different companies unless told otherwise.
      seed: options.seed ?? 0x5eed + takenRegistrations.size,
      now: new Date(),
      newId: () => crypto.randomUUID(),
      takenRegistrations,
      documentsPerEntity: options.documentsPerEntity,
      sharedFiles: true,
      documentKeys,
    });
    process.stdout.write(
      `Seeding ${String(options.entities)} legal entities and ${String(options.persons)} natural persons into ${config.dataDir}\n`,
    );

    const written: Record<keyof SeedRows, number> = {
      entities: 0,
      legalEntities: 0,
      naturalPersons: 0,
      links: 0,
      verifications: 0,
      documents: 0,
      documentChunks: 0,
    };
    const personsBefore = (entityCount: number) =>
      Math.floor((entityCount * options.persons) / options.entities);
    const writeBatches = async (write: (rows: SeedRows) => Promise<unknown>) => {
      for (let done = 0; done < options.entities;) {
        const count = Math.min(ENTITIES_PER_BATCH, options.entities - done);
        const rows = generator.batch(count, personsBefore(done + count) - personsBefore(done));
        await write(rows);
        for (const table of Object.keys(written) as (keyof SeedRows)[]) {
          written[table] += rows[table].length;
        }
        const before = done;
        done += count;
        if (Math.floor(done / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
          const seconds = secondsSince(started);
          process.stdout.write(`  ${String(done)} legal entities written (${seconds} s)\n`);
        }
      }
    };
    if (fresh) {
      // A first load is one transaction: stopped halfway, it leaves the database as it was.
      await repository.loadWithIndexesBuiltAfter((trx) =>
        writeBatches((rows) => seedRepository(trx).insert(rows)),
      );
      process.stdout.write(`  indexes built (${secondsSince(started)} s)\n`);
    } else {
      await writeBatches((rows) =>
        repository.inTransaction((trx) => seedRepository(trx).insert(rows)),
      );
    }

    // After the load rather than per batch: written in list order, a page's records are neighbours.
    const listRecords = await rebuildListRecords(db);
    // The batches come in random creation order; search reads the names in list order.
    await repository.inTransaction(async (trx) => {
      await renumberNameOrder(trx, 'company');
      await renumberNameOrder(trx, 'person');
    });
    await foldEntityIndexCounts(db);
    await repository.refreshStatistics();
    const total = Object.values(written).reduce((sum, count) => sum + count, 0);
    const seconds = secondsSince(started);
    process.stdout.write(
      [
        `Done in ${seconds} s: ${String(total)} rows written`,
        `  entities ${String(written.entities)} (legal entities ${String(written.legalEntities)}, natural persons ${String(written.naturalPersons)})`,
        `  links ${String(written.links)}, verifications ${String(written.verifications)}, documents ${String(written.documents)} (${String(written.documentChunks)} stored pieces)`,
        `  list records ${String(listRecords)}`,
        `Peak RSS: ${megabytes(process.resourceUsage().maxRSS * 1024)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const hint = message.startsWith('--') || message.includes('option') ? ' See --help.' : '';
  process.stderr.write(`${message}${hint}\n`);
  process.exitCode = 1;
});
