import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { entityDerivedData } from './derived-data-repository.ts';
import { insertLegalEntity } from '../../testing/fixtures.ts';
import {
  dropTestDatabaseUrl,
  newTestDatabaseUrl,
  startTestServer,
  testEngine,
} from '../../testing/harness.ts';
import { type Db, openDatabase } from '../../db/database.ts';
import {
  DERIVED_DATA,
  type DerivedData,
  type DerivedDataRebuilders,
  pendingDerivedData,
  rebuildDerivedData,
} from './derived-data.ts';

let dataDir: string;
let databaseUrl: string | undefined;
let db: Db;

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-derived-'));
  databaseUrl = await newTestDatabaseUrl();
  ({ db } = await openDatabase(dataDir, databaseUrl));
});

afterEach(async () => {
  await db.destroy();
  await dropTestDatabaseUrl(databaseUrl);
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A request as the migrations' helper leaves it (migrations/helpers/0015-derived-data.ts). */
async function request(target: Db, derivedData: DerivedData, requestedBy = '00xx_test') {
  await target
    .insertInto('app_settings')
    .values({ key: `rebuild:${derivedData}`, value: requestedBy })
    .execute();
}

/** Rebuilders that only count their calls, `failing` throwing instead. */
function countingRebuilders(calls: DerivedData[], failing?: DerivedData): DerivedDataRebuilders {
  const rebuilders = Object.fromEntries(
    DERIVED_DATA.map((derivedData) => [
      derivedData,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (derivedData === failing) throw new Error(`${derivedData} failed`);
        calls.push(derivedData);
        return 1;
      },
    ]),
  );
  return rebuilders as unknown as DerivedDataRebuilders;
}

describe(`derived data rebuilt at start-up (${testEngine})`, () => {
  it('is not asked for by the migrations of a new, empty database', async () => {
    expect(await pendingDerivedData(db)).toEqual([]);
    expect(await rebuildDerivedData(db, entityDerivedData)).toEqual([]);
  });

  it('rebuilds in its fixed order, and leaves the failed request and those after it for the next start', async () => {
    for (const derivedData of [...DERIVED_DATA].reverse()) await request(db, derivedData);
    const calls: DerivedData[] = [];
    await expect(
      rebuildDerivedData(db, countingRebuilders(calls, 'current-verifications')),
    ).rejects.toThrow('current-verifications failed');
    expect(calls).toEqual(['search-columns', 'company-name-order', 'person-name-order']);
    expect(await pendingDerivedData(db)).toEqual(['current-verifications', 'list-records']);

    const notes = await rebuildDerivedData(db, countingRebuilders(calls));
    expect(notes.map((note) => [note.derivedData, note.requestedBy, note.detail])).toEqual([
      ['current-verifications', '00xx_test', { changed: 1 }],
      ['list-records', '00xx_test', { changed: 1 }],
    ]);
    expect(await pendingDerivedData(db)).toEqual([]);
  });

  it('a server starting on the database carries out what was asked before it serves', async () => {
    const { legalEntityId } = await insertLegalEntity(db);
    await db.deleteFrom('entity_list_records').execute();
    for (const derivedData of ['search-columns', 'list-records'] as const) {
      await request(db, derivedData);
    }
    const server = await startTestServer({ dataDir, databaseUrl });
    try {
      expect(await pendingDerivedData(db)).toEqual([]);
      const stored = await db
        .selectFrom('entity_list_records')
        .select('entity_id')
        .where('entity_id', '=', legalEntityId)
        .execute();
      expect(stored).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  // On SQLite one process cannot wait on its own lock (better-sqlite3 blocks its thread); BEGIN
  // IMMEDIATE serialises processes as it does the migrations (two-processes.test.ts).
  test.runIf(testEngine === 'postgres')(
    'instances starting together rebuild each thing once',
    async () => {
      await request(db, 'list-records');
      await request(db, 'search-columns');
      const others = await Promise.all(
        [1, 2].map(async () => (await openDatabase(dataDir, databaseUrl)).db),
      );
      try {
        const calls: DerivedData[] = [];
        await Promise.all(
          [db, ...others].map((instance) =>
            rebuildDerivedData(instance, countingRebuilders(calls)),
          ),
        );
        expect(calls.sort()).toEqual(['list-records', 'search-columns']);
      } finally {
        for (const other of others) await other.destroy();
      }
    },
  );
});
