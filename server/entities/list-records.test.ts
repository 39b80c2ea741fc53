import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { EntityListQuery } from '../../contract/entities.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { assembleEntities } from './read-model/assemble.ts';
import { createListPositions } from './read-model/list-positions.ts';
import { rebuildListRecords } from './read-model/list-records.ts';
import { listPage } from './read-model/list-page.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { testPdf } from '../testing/document-files.ts';

let server: TestServer;
const db = () => server.app.services.db;

const FLAGS = [
  { corporateVerification: false, supportingDocuments: false },
  { corporateVerification: true, supportingDocuments: false },
  { corporateVerification: false, supportingDocuments: true },
  { corporateVerification: true, supportingDocuments: true },
];
const TYPES = ['all', 'legal-entities', 'natural-persons'] as const;

function listQuery(overrides: Partial<EntityListQuery> = {}): EntityListQuery {
  return {
    type: 'all',
    descending: false,
    limit: 7,
    start: 0,
    corporateVerification: true,
    supportingDocuments: true,
    ...overrides,
  };
}

/** The page as the list built it before records: every entity assembled, then stringified. */
async function assembledPage(query: EntityListQuery): Promise<string> {
  const kinds = { all: undefined, 'legal-entities': 'legal', 'natural-persons': 'person' } as const;
  const kind = kinds[query.type];
  const direction = query.descending ? 'desc' : 'asc';
  let rows = db().selectFrom('entities').selectAll();
  if (kind) rows = rows.where('kind', '=', kind);
  const page = await rows
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(query.limit)
    .offset(query.start)
    .execute();
  return JSON.stringify(
    await assembleEntities(db(), page, {
      verifications: query.corporateVerification,
      legalEntityDocuments: query.supportingDocuments,
      personDetail: false,
    }),
  );
}

async function recordCount(): Promise<number> {
  const row = await db()
    .selectFrom('entity_list_records')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const hasRecord = async (id: string) =>
  (await db()
    .selectFrom('entity_list_records')
    .select('entity_id')
    .where('entity_id', '=', id)
    .executeTakeFirst()) !== undefined;

beforeAll(async () => {
  let tick = 0;
  const start = Date.UTC(2026, 0, 1);
  server = await startTestServer({ now: () => new Date(start + 1000 * tick++) });
  for (let index = 0; index < 12; index += 1) {
    const response = await postLegalEntity(
      server,
      legalEntityPayload({
        supportingDocuments:
          index % 3 === 0
            ? [
                {
                  fileName: `statement "${String(index)}"\u2028.pdf`,
                  type: 'Bank Statement',
                  file: testPdf(`Statement ${String(index)}`).toString('base64'),
                },
              ]
            : [],
      }),
    );
    expect(response.status).toBe(201);
  }
  // Written past the API, as another writer would: no records until rebuilt or read.
  await insertLegalEntity(db(), {
    legalEntity: { company_name: 'Fixture \u00c9tablissements <&> "Quoted"' },
  });
  await insertNaturalPerson(db());
});

afterAll(async () => {
  await server.close();
});

describe('entity list records (migration 0013)', () => {
  it('are written by the create route for the legal entity and its contact', async () => {
    const created = await db()
      .selectFrom('entities')
      .select('id')
      .where('external_id', 'is', null)
      .execute();
    expect(created.length).toBeGreaterThan(0);
    // 12 legal entities and their 12 contacts; the fixtures (a legal entity with two persons, and a person) have none yet.
    expect(await recordCount()).toBe(24);
  });

  it('give the same page as assembling every entity, for every flag, type, order and start', async () => {
    for (const flags of FLAGS) {
      for (const type of TYPES) {
        for (const descending of [false, true]) {
          for (const start of [0, 3, 10, 25]) {
            const query = listQuery({ ...flags, type, descending, start });
            expect(String(await listPage(db(), query))).toBe(await assembledPage(query));
          }
        }
      }
    }
  });

  it('are rebuilt in list order and give the same pages as without them', async () => {
    const query = listQuery({ limit: 100 });
    const without = String(await listPage(db(), query));
    expect(await rebuildListRecords(db())).toBe(4);
    expect(await recordCount()).toBe(28);
    expect(await rebuildListRecords(db())).toBe(0);
    expect(String(await listPage(db(), query))).toBe(without);
    await db().deleteFrom('entity_list_records').execute();
    expect(String(await listPage(db(), query))).toBe(without);
    expect(await rebuildListRecords(db())).toBe(28);
  });

  it('are dropped by any change to the entity, its data, links, verifications or documents', async () => {
    const { legalEntityId, directorId } = await insertLegalEntity(db());
    await rebuildListRecords(db());
    const changes: [string, string[], () => Promise<unknown>][] = [
      [
        'entity status',
        [legalEntityId],
        () =>
          db()
            .updateTable('entities')
            .set({ kyc_status: 'Escalated' })
            .where('id', '=', legalEntityId)
            .execute(),
      ],
      [
        'company name',
        [legalEntityId],
        () =>
          db()
            .updateTable('legal_entities')
            .set({ company_name: 'Renamed Ltd' })
            .where('entity_id', '=', legalEntityId)
            .execute(),
      ],
      [
        'person',
        [directorId],
        () =>
          db()
            .updateTable('natural_persons')
            .set({ first_name: 'Renamed' })
            .where('entity_id', '=', directorId)
            .execute(),
      ],
      [
        'verification',
        [legalEntityId],
        () =>
          db()
            .insertInto('verifications')
            .values({
              id: randomUUID(),
              legal_entity_id: legalEntityId,
              legal_entity_verification: 1,
              verification_status: 'Accepted',
              verification_date: '2026-02-01',
              verification_source: 'Registry',
              business_statement: 'Checked',
              next_review_date: '2027-02-01',
              verification_issues: '[]',
              created_at: '2026-02-01T00:00:00.000Z',
            })
            .execute(),
      ],
      [
        'document',
        [legalEntityId],
        () =>
          db()
            .insertInto('documents')
            .values({
              id: randomUUID(),
              entity_id: legalEntityId,
              file_name: 'registry.pdf',
              type: 'Other',
              description: null,
              date_received: '2026-02-01 00:00:00',
              approved: 0,
              mime_type: 'application/pdf',
              file_size: 0,
              sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
            })
            .execute(),
      ],
      [
        'link',
        [legalEntityId, directorId],
        () =>
          db()
            .deleteFrom('entity_links')
            .where('legal_entity_id', '=', legalEntityId)
            .where('person_id', '=', directorId)
            .execute(),
      ],
    ];
    for (const [change, ids, write] of changes) {
      await rebuildListRecords(db());
      for (const id of ids) expect(await hasRecord(id), `${change}: before`).toBe(true);
      await write();
      for (const id of ids) expect(await hasRecord(id), `${change}: after`).toBe(false);
      const query = listQuery({ limit: 100 });
      expect(String(await listPage(db(), query)), change).toBe(await assembledPage(query));
    }
    await rebuildListRecords(db());
    const query = listQuery({ limit: 100 });
    expect(String(await listPage(db(), query))).toBe(await assembledPage(query));
    expect(String(await listPage(db(), query))).toContain('"firstName":"Renamed"');
  });

  it('leave with their entity', async () => {
    const id = await insertNaturalPerson(db());
    await rebuildListRecords(db());
    expect(await hasRecord(id)).toBe(true);
    await db().deleteFrom('natural_persons').where('entity_id', '=', id).execute();
    await db().deleteFrom('entities').where('id', '=', id).execute();
    expect(await hasRecord(id)).toBe(false);
  });

  it('known positions give the same pages as counting from the start, in any order of asking', async () => {
    const positions = createListPositions();
    const total = await db()
      .selectFrom('entities')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const starts = Array.from({ length: Number(total.n) + 2 }, (_, start) => start);
    // A fixed shuffle: positions are learnt out of order, as random pages teach them.
    const order = starts.map((start) => (start * 7) % starts.length);
    for (const type of TYPES) {
      for (const descending of [false, true]) {
        for (const start of [...order, ...order]) {
          const query = listQuery({ type, descending, start, limit: 3 });
          const at = positions.at('one version', `${type} ${String(descending)}`);
          expect(String(await listPage(db(), query, at))).toBe(await assembledPage(query));
        }
      }
    }
  });

  it('known positions are forgotten when the database version moves', async () => {
    const positions = createListPositions();
    const query = listQuery({ start: 20, limit: 3 });
    await listPage(db(), query, positions.at('before', 'all asc'));
    expect(positions.at('before', 'all asc').nearest(20)?.position).toBe(20);
    await insertNaturalPerson(db(), {});
    await sql`select 1`.execute(db());
    expect(positions.at('after', 'all asc').nearest(20)).toBeUndefined();
    expect(String(await listPage(db(), query, positions.at('after', 'all asc')))).toBe(
      await assembledPage(query),
    );
  });
});
