import { sql } from 'kysely';
import { legalEntityResponseSchema, searchResponseSchema } from '../../contract/entities.ts';
import { foldForSearch } from '../../contract/search-text.ts';
import { createGenerator } from '../seed/generators.ts';
import { seedRepository } from '../seed/seed-repository.ts';
import { checkFtsIndex } from '../testing/fts-integrity.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { legalEntityPayload, postLegalEntity, uniqueSuffix } from '../testing/test-payloads.ts';

let server: TestServer;

async function search(companyName: string, extra = '') {
  const response = await server.request(
    `/api/v2/entities/legal-entities?companyName=${encodeURIComponent(companyName)}${extra}`,
  );
  expect(response.status, response.text).toBe(200);
  return searchResponseSchema.parse(response.body).data;
}

async function create(companyName: string) {
  const payload = legalEntityPayload({ corporateInformation: { companyName } });
  const response = await postLegalEntity(server, payload);
  expect(response.status, response.text).toBe(201);
  return {
    id: legalEntityResponseSchema.parse(response.body).data.id,
    registrationNumber: payload.corporateInformation.registrationNumber,
  };
}

/** Rows as the API orders them, for expectations computed from what was written. */
async function legalEntitiesOldestFirst() {
  return server.app.services.db
    .selectFrom('legal_entities')
    .innerJoin('entities', 'entities.id', 'legal_entities.entity_id')
    .select(['legal_entities.entity_id', 'legal_entities.company_name'])
    .orderBy('entities.created_at')
    .orderBy('entities.id')
    .execute();
}

function containing(
  rows: { entity_id: string; company_name: string }[],
  text: string,
  limit = 500,
): string[] {
  return rows
    .filter((row) => foldForSearch(row.company_name).includes(foldForSearch(text)))
    .map((row) => row.entity_id)
    .slice(0, limit);
}

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('companyName search through the name indexes', () => {
  it('finds a substring in the middle of a word and across words, ignoring case', async () => {
    const blackthorne = await create('Blackthorne Consolidated Mining');
    expect(await search('kthor')).toEqual([blackthorne.id]);
    expect(await search('KTH')).toEqual([blackthorne.id]);
    expect(await search('KTHORNE CON')).toEqual([blackthorne.id]);
    expect(await search('olidated min')).toEqual([blackthorne.id]);
    expect(await search('thorne  con')).toEqual([]);
  });

  it('finds names with non-ASCII capitals by their exact name and in lower case', async () => {
    const suffix = uniqueSuffix();
    const ecole = await create(`ÉCOLE ÖSTERREICH ${suffix}`);
    const strasse = await create(`Hauptstraße ${suffix} Handel`);
    const sigma = await create(`ΟΔΟΣ ${suffix} Α.Ε.`);
    expect(await search(`ÉCOLE ÖSTERREICH ${suffix}`)).toEqual([ecole.id]);
    expect(await search(`école österreich ${suffix.toLowerCase()}`)).toEqual([ecole.id]);
    // É as E and a combining acute accent: the same name after NFKC.
    expect(await search(`E\u0301cole Österreich ${suffix}`)).toEqual([ecole.id]);
    expect(await search(`STRASSE ${suffix}`)).toEqual([strasse.id]);
    expect(await search(`hauptstrasse ${suffix}`)).toEqual([strasse.id]);
    expect(await search(`οδος ${suffix}`)).toEqual([sigma.id]);
    expect(await search(`ΟΔΟΣ ${suffix}`)).toEqual([sigma.id]);
    const rows = await legalEntitiesOldestFirst();
    // One or two code points after folding: the LIKE path, with the same folding.
    expect(await search('Ö')).toEqual(containing(rows, 'ö'));
    expect(await search('Ö')).toContain(ecole.id);
    expect(await search('ß')).toEqual(containing(rows, 'ss'));
    expect(await search('ß')).toContain(strasse.id);
  });

  it('takes quotes and FTS5 query syntax in the input literally', async () => {
    const quoted = await create('Acme "Quoted" Widgets');
    const star = await create('Star* Holdings');
    const andOmega = await create('Alpha AND Omega Partners');
    const near = await create('NEAR(Bay) Shipping');
    const caret = await create('^Caret: Col-on + Minus');

    expect(await search('"Quoted"')).toEqual([quoted.id]);
    expect(await search('e "q')).toEqual([quoted.id]);
    expect(await search('Star*')).toEqual([star.id]);
    expect(await search('tar* h')).toEqual([star.id]);
    expect(await search('AND Omega')).toEqual([andOmega.id]);
    expect(await search('ha and o')).toEqual([andOmega.id]);
    expect(await search('Alpha OR Omega')).toEqual([]);
    expect(await search('NEAR(Bay)')).toEqual([near.id]);
    expect(await search('NEAR(Bay Shipping)')).toEqual([]);
    expect(await search('^Caret:')).toEqual([caret.id]);
    expect(await search('Col-on + Minus')).toEqual([caret.id]);
    expect(await search('Col -on')).toEqual([]);
    expect(await search('"""')).toEqual([]);
  });

  it('matches one- and two-character inputs by the same substring rule', async () => {
    const suffix = uniqueSuffix();
    const short = await create(`Qz${suffix} Ltd`);
    const rows = await legalEntitiesOldestFirst();
    expect(await search('"')).toEqual(containing(rows, '"'));
    expect(await search('"')).not.toEqual([]);
    expect(await search('qZ')).toEqual(containing(rows, 'qz'));
    expect(await search('qZ')).toContain(short.id);
    expect(await search(suffix.slice(0, 2).toLowerCase())).toContain(short.id);
  });

  it('combines the index with the other parameters (AND)', async () => {
    const first = await create('Juniper Ridge Analytics');
    const second = await create('Juniper Ridge Analytics');
    expect(await search('per ridge')).toEqual([first.id, second.id]);
    expect(
      await search(
        'per ridge',
        `&registrationNumber=${encodeURIComponent(second.registrationNumber)}`,
      ),
    ).toEqual([second.id]);
    expect(
      await search(
        'nothing like it',
        `&registrationNumber=${encodeURIComponent(second.registrationNumber)}`,
      ),
    ).toEqual([]);
  });

  it('indexes rows written by the seed through the triggers, oldest first, at most 500', async () => {
    const generator = createGenerator({
      seed: 0xf75,
      now: new Date(),
      newId: () => crypto.randomUUID(),
      takenRegistrations: await seedRepository(server.app.services.db).registrationKeys(),
      documentsPerEntity: 0,
    });
    const rows = generator.batch(700, 0);
    // Every seeded name carries one marker, so one search matches more rows than the cap.
    const marker = `Zq${uniqueSuffix()}`;
    for (const row of rows.legalEntities) row.company_name = `${row.company_name} ${marker}`;
    const seed = seedRepository(server.app.services.db);
    await seed.inTransaction((trx) => seedRepository(trx).insert(rows));

    const stored = await legalEntitiesOldestFirst();
    const sample = rows.legalEntities[350]?.company_name ?? '';
    const inner = sample.slice(1, 6);
    expect(inner.length).toBeGreaterThanOrEqual(3);
    const found = await search(inner.toUpperCase());
    expect(found).toEqual(containing(stored, inner));
    expect(found).toContain(rows.legalEntities[350]?.entity_id);

    const marked = await search(marker.slice(1).toLowerCase());
    expect(marked).toHaveLength(500);
    expect(marked).toEqual(containing(stored, marker, Number.MAX_SAFE_INTEGER).slice(0, 500));
  });

  it('follows renames and deletions (update and delete triggers)', async () => {
    const renamed = await create(`Orchid Renamable ${uniqueSuffix()}`);
    const deleted = await create(`Orchid Deletable ${uniqueSuffix()}`);
    const db = server.app.services.db;
    await db
      .updateTable('legal_entities')
      .set({
        company_name: 'Tamarind Renamed Trading',
        company_name_folded: foldForSearch('Tamarind Renamed Trading'),
      })
      .where('entity_id', '=', renamed.id)
      .execute();
    await db.deleteFrom('entities').where('id', '=', deleted.id).execute();

    expect(await search('Orchid Renamable')).toEqual([]);
    expect(await search('marind rena')).toEqual([renamed.id]);
    expect(await search('Orchid Deletable')).toEqual([]);
    for (const index of [
      'legal_entity_name_order_fts',
      'legal_entity_name_order_grams',
      'legal_entity_name_order_quadgrams',
    ]) {
      await expect(checkFtsIndex(db, index), index).resolves.toBeDefined();
    }
    const { rows } = await sql<{
      names: number;
      legalEntities: number;
      strays: number;
    }>`select (select count(*) from legal_entity_name_order) as names,
      (select count(*) from legal_entities) as legalEntities,
      (select count(*) from legal_entity_name_order_late where position not in (select position from legal_entity_name_order)) as strays`.execute(
      db,
    );
    expect(rows[0]?.names).toBe(rows[0]?.legalEntities);
    expect(rows[0]?.strays).toBe(0);
  });
});
