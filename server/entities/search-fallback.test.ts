import { searchResponseSchema } from '../../contract/entities.ts';
import { foldForSearch } from '../../contract/search-text.ts';
import { createGenerator } from '../seed/generators.ts';
import { seedRepository } from '../seed/seed-repository.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { MAX_SEARCH_RESULTS } from './read-model/dialect.ts';
import { lateNameCount, readModelRepository } from './read-model/repository.ts';
import { keepNamesInListOrder } from './read-model/search.ts';
import { uniqueSuffix } from '../testing/test-payloads.ts';

let server: TestServer;
let marker = '';
let sampleName = '';
let ecoleId = '';
let strasseId = '';

async function searchRoute(companyName: string, extra = '') {
  const response = await server.request(
    `/api/v2/entities/legal-entities?companyName=${encodeURIComponent(companyName)}${extra}`,
  );
  expect(response.status, response.text).toBe(200);
  return searchResponseSchema.parse(response.body).data;
}

/** What the API must answer, computed from the stored rows in the API's order. */
async function expected(text: string): Promise<string[]> {
  const rows = await server.app.services.db
    .selectFrom('legal_entities')
    .innerJoin('entities', 'entities.id', 'legal_entities.entity_id')
    .select(['legal_entities.entity_id', 'legal_entities.company_name'])
    .orderBy('entities.created_at')
    .orderBy('entities.id')
    .execute();
  return rows
    .filter((row) => foldForSearch(row.company_name).includes(foldForSearch(text)))
    .map((row) => row.entity_id)
    .slice(0, MAX_SEARCH_RESULTS);
}

beforeAll(async () => {
  server = await startTestServer();
  const generator = createGenerator({
    seed: 0x5eac,
    now: new Date(),
    newId: () => crypto.randomUUID(),
    takenRegistrations: await seedRepository(server.app.services.db).registrationKeys(),
    documentsPerEntity: 0,
  });
  const rows = generator.batch(800, 0);
  marker = `Fb${uniqueSuffix()}`;
  // 700 of 800 rows carry the marker: more than the 500 answers, so the index read stops early.
  rows.legalEntities.forEach((row, index) => {
    if (index % 8 !== 0) row.company_name = `${row.company_name} ${marker}`;
    // Names with non-ASCII capitals, as registers print them, among the marked rows and the others.
    if (index % 50 === 7) row.company_name = `ÉCOLE ÖSTERREICH ${row.company_name}`;
    if (index % 50 === 16) row.company_name = `${row.company_name} Hauptstraße`;
  });
  ecoleId = rows.legalEntities[7]?.entity_id ?? '';
  strasseId = rows.legalEntities[16]?.entity_id ?? '';
  sampleName = rows.legalEntities[400]?.company_name ?? '';
  await seedRepository(server.app.services.db).inTransaction((trx) =>
    seedRepository(trx).insert(rows),
  );
});

afterAll(async () => {
  await server.close();
});

describe('companyName search: index path and LIKE fallback', () => {
  it.each([
    // The generator writes in random creation order: most names arrive after a later one.
    ['names inserted out of list order', false],
    ['every name renumbered in list order', true],
  ])(
    'give identical answers for common, rare, short and absent fragments, %s',
    async (_, renumbered) => {
      const db = server.app.services.db;
      const late = await lateNameCount(db, 'company');
      if (renumbered) {
        // What a start does: nothing at the limit, everything past it.
        expect(await keepNamesInListOrder(db, 'company', late)).toEqual({
          late,
          renumbered: false,
        });
        expect(await keepNamesInListOrder(db, 'company', late - 1)).toEqual({
          late,
          renumbered: true,
        });
      }
      expect(await lateNameCount(db, 'company')).toSatisfy((now: number) =>
        renumbered ? now === 0 : now > 100,
      );
      const repository = readModelRepository(server.app.services.db);
      const fragments = [
        marker.slice(1).toUpperCase(),
        sampleName.slice(2, 8),
        sampleName.slice(0, 3).toLowerCase(),
        'ab',
        'no such company anywhere',
        'ÉCOLE ÖSTERREICH',
        'école österreich',
        'STRASSE',
        'ß',
        'Ö',
      ];
      for (const fragment of fragments) {
        const byIndex = await repository.searchLegalEntities({ companyNameContains: fragment });
        const byLike = await repository.searchLegalEntities(
          { companyNameContains: fragment },
          'walk',
        );
        const answer = await expected(fragment);
        expect(byIndex, fragment).toEqual(answer);
        expect(byLike, fragment).toEqual(answer);
        expect(await searchRoute(fragment), fragment).toEqual(answer);
      }
      expect(await expected(marker)).toHaveLength(MAX_SEARCH_RESULTS);
      expect(await expected('école österreich')).toContain(ecoleId);
      expect(await expected('STRASSE')).toContain(strasseId);
    },
  );

  it('give identical answers combined with another parameter', async () => {
    const repository = readModelRepository(server.app.services.db);
    const [first] = await expected(marker);
    const row = await server.app.services.db
      .selectFrom('legal_entities')
      .select(['registration_number'])
      .where('entity_id', '=', first ?? '')
      .executeTakeFirstOrThrow();
    const search = { companyNameContains: marker, registrationNumber: row.registration_number };
    const byIndex = await repository.searchLegalEntities(search);
    const byLike = await repository.searchLegalEntities(search, 'walk');
    expect(byIndex).toEqual([first]);
    expect(byLike).toEqual([first]);
    expect(
      await searchRoute(
        marker,
        `&registrationNumber=${encodeURIComponent(row.registration_number)}`,
      ),
    ).toEqual([first]);
  });
});
