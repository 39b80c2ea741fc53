import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, type Kysely, sql, type Compilable } from 'kysely';
import { PRIMARY_CONTACT } from '../../contract/entities.ts';
import { digitsOnly } from '../../contract/identifiers.ts';
import {
  foldCase,
  foldForSearch,
  normalisedRegistrationNumber,
} from '../../contract/search-text.ts';
import { entityDerivedData } from '../entities/read-model/derived-data-repository.ts';
import { phoneQuery, phoneSearchDigits } from '../entities/read-model/phone-search.ts';
import { rebuildDerivedData } from '../entities/read-model/derived-data.ts';
import {
  legalEntitySearchQuery,
  naturalPersonSearchQuery,
  readModelRepository,
} from '../entities/read-model/repository.ts';
import { namesInListOrderQuery } from '../entities/read-model/sqlite/repository.ts';
import { createGenerator, type SeedRows } from '../seed/generators.ts';
import { checkFtsIndex } from '../testing/fts-integrity.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { databaseMigratedTo } from '../testing/migrated-to.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

let dataDir: string;
let databaseUrl: string | undefined;
let db: Kysely<Database>;
let rows: SeedRows;
const ids = { etoile: '', contact: '' };

/** Rows as the repository wrote them before 0022: names and e-mails folded for case only. */
async function insertWithTheOldFold(seed: SeedRows) {
  const oldFold = (text: string | null | undefined) =>
    text === null || text === undefined ? null : foldCase(text);
  await db.transaction().execute(async (trx) => {
    const write = async (table: string, values: readonly object[]) => {
      for (let start = 0; start < values.length; start += 200)
        await trx
          .insertInto(table as 'entities')
          .values(values.slice(start, start + 200) as never)
          .execute();
    };
    await write(
      'entities',
      seed.entities.map((row) => ({ ...row, external_id_folded: oldFold(row.external_id) })),
    );
    await write(
      'legal_entities',
      seed.legalEntities.map((row) => ({
        ...row,
        company_name_folded: foldCase(row.company_name),
        registration_number_normalised: normalisedRegistrationNumber(row.registration_number),
      })),
    );
    await write(
      'natural_persons',
      seed.naturalPersons.map((row) => ({
        ...row,
        email_folded: oldFold(row.email),
        first_name_folded: foldCase(row.first_name),
        last_name_folded: foldCase(row.last_name),
        phone_digits: row.phone === null || row.phone === undefined ? null : digitsOnly(row.phone),
      })),
    );
    await write('entity_links', seed.links);
  });
}

/** A company with accents and typographic punctuation, and its contact without a country code. */
function handmadeRows(): SeedRows {
  const at = '2030-01-01T00:00:00.000Z';
  ids.etoile = crypto.randomUUID();
  ids.contact = crypto.randomUUID();
  const entity = (id: string, kind: 'legal' | 'person', externalId: string | null) => ({
    id,
    kind,
    created_at: at,
    external_id: externalId,
    kyc_status: 'New',
    risk_level: 'Low',
    last_update: at,
    next_kyc_review: null,
    tags: '[]',
  });
  return {
    entities: [entity(ids.etoile, 'legal', 'CRM-ÉTOILE'), entity(ids.contact, 'person', null)],
    legalEntities: [
      {
        entity_id: ids.etoile,
        company_name: 'Étoile Ærø O’Connor Łódź S.L.',
        registration_number: 'B-12345678',
        date_of_incorporation: null,
        duns: '000000001',
        glei: '',
        company_phone: '+34 637 874 163',
        company_phone_digits: '34637874163',
        email: 'info@etoile.example',
        primary_address: 'Calle Mayor 1',
        city: 'Madrid',
        state_province: '',
        country: 'ES',
        postal_code: '28013',
      },
    ],
    naturalPersons: [
      {
        entity_id: ids.contact,
        first_name: 'Zoë',
        middle_name: null,
        last_name: 'González-Þórsdóttir',
        date_of_birth: null,
        email: 'Zoë@Étoile.example',
        phone: '637 874 164',
        address: null,
        city: null,
        state_province: null,
        country_code: null,
        postal_code: null,
      },
    ],
    links: [{ legal_entity_id: ids.etoile, person_id: ids.contact, relationship: PRIMARY_CONTACT }],
    verifications: [],
    documents: [],
    documentChunks: [],
  };
}

/**
 * PostgreSQL's plan (EXPLAIN) with the table scan and the walk of the search-order index ruled out:
 * on a table this small either is cheapest, so this shows which index can serve the condition.
 */
function postgresPlanOf(query: Compilable): Promise<string> {
  const compiled = query.compile();
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_indexscan = off`.execute(trx);
    const { rows: plan } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
    );
    return plan.map((row) => row['QUERY PLAN']).join('\n');
  });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-0022-'));
  databaseUrl = await newTestDatabaseUrl();
  db = await databaseMigratedTo('0021_company_quadgrams_without_columns', {
    databaseUrl,
    dataDir,
    file: 'before-0022.sqlite',
  });
  rows = createGenerator({
    seed: 20_240_611,
    now: new Date('2026-03-15T12:00:00.000Z'),
    newId: () => crypto.randomUUID(),
    documentsPerEntity: 0,
  }).batch(300, 200);
  await insertWithTheOldFold(rows);
  await insertWithTheOldFold(handmadeRows());
  await migrateToLatest(db as unknown as Kysely<unknown>);
  await rebuildDerivedData(db, entityDerivedData);
}, 120_000);

afterAll(async () => {
  await db.destroy();
  await dropTestDatabaseUrl(databaseUrl);
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('0022_accent_folded_search', () => {
  it('rewrites every folded column written with the old fold', async () => {
    const legal = await db
      .selectFrom('legal_entities')
      .select(['company_name', 'company_name_folded'])
      .execute();
    expect(
      legal.some((row) => foldCase(row.company_name) !== foldForSearch(row.company_name)),
    ).toBe(true);
    for (const row of legal) expect(row.company_name_folded).toBe(foldForSearch(row.company_name));
    const people = await db
      .selectFrom('natural_persons')
      .select([
        'first_name',
        'first_name_folded',
        'last_name',
        'last_name_folded',
        'email',
        'email_folded',
      ])
      .execute();
    for (const row of people) {
      expect(row.first_name_folded).toBe(foldForSearch(row.first_name));
      expect(row.last_name_folded).toBe(foldForSearch(row.last_name));
      expect(row.email_folded).toBe(row.email === null ? null : foldForSearch(row.email));
    }
    const entities = await db
      .selectFrom('entities')
      .select(['external_id', 'external_id_folded'])
      .execute();
    for (const row of entities)
      expect(row.external_id_folded).toBe(
        row.external_id === null ? null : foldForSearch(row.external_id),
      );
  });

  it('derives the phones’ international and national digits, a contact’s for its company’s country', async () => {
    const legal = await db
      .selectFrom('legal_entities')
      .select([
        'company_phone',
        'country',
        'company_phone_international_digits',
        'company_phone_national_digits',
      ])
      .execute();
    for (const row of legal) {
      const digits = phoneSearchDigits(row.company_phone, row.country);
      expect([row.company_phone_international_digits, row.company_phone_national_digits]).toEqual([
        digits.international,
        digits.national,
      ]);
    }
    const people = await db
      .selectFrom('natural_persons')
      .select([
        'entity_id',
        'phone',
        'country_code',
        'phone_international_digits',
        'phone_national_digits',
      ])
      .execute();
    for (const row of people.filter((person) => person.entity_id !== ids.contact)) {
      const digits = phoneSearchDigits(row.phone, row.country_code);
      expect([row.phone_international_digits, row.phone_national_digits]).toEqual([
        digits.international,
        digits.national,
      ]);
    }
    expect(people.find((person) => person.entity_id === ids.contact)).toMatchObject({
      phone_international_digits: '34637874164',
      phone_national_digits: '637874164',
    });
    expect(legal.some((row) => row.company_phone_national_digits !== null)).toBe(true);
  });

  it('searches find the rewritten names on every path, and by phone', async () => {
    const repository = readModelRepository(db);
    for (const plan of ['best', 'walk'] as const) {
      // Runs of four, trigrams, one and two characters (the n-gram paths), typographic apostrophe.
      for (const text of ['etoile', 'ETOILE AERO', "o'connor", 'lodz', 'aer', 'ae', 'ø']) {
        expect(
          await repository.searchLegalEntities({ companyNameContains: text }, plan),
          `${text}, ${plan}`,
        ).toContain(ids.etoile);
      }
      expect(
        await repository.searchNaturalPersons(
          { firstNameContains: 'zoe', lastNameContains: 'gonzalez-thor' },
          plan,
        ),
      ).toEqual([ids.contact]);
    }
    // An accent alone folds to nothing, which every name contains, on both engines and paths.
    for (const plan of ['best', 'walk'] as const)
      expect(
        await repository.searchLegalEntities({ companyNameContains: '\u0301' }, plan),
      ).toHaveLength(rows.legalEntities.length + 1);
    expect(await repository.searchNaturalPersons({ email: 'zoe@etoile.example' })).toEqual([
      ids.contact,
    ]);
    expect(await repository.searchLegalEntities({ externalId: 'crm-etoile' })).toEqual([
      ids.etoile,
    ]);
    expect(await repository.searchLegalEntities({ phone: phoneQuery('637874163') })).toEqual([
      ids.etoile,
    ]);
    expect(await repository.searchNaturalPersons({ phone: phoneQuery('0034637874164') })).toEqual([
      ids.contact,
    ]);
    // Every generated company is found by its own folded name.
    for (const company of rows.legalEntities) {
      expect(
        await repository.searchLegalEntities({
          companyNameContains: foldForSearch(company.company_name),
        }),
        company.company_name,
      ).toContain(company.entity_id);
    }
  }, 60_000);

  it.runIf(testEngine === 'sqlite')(
    'SQLite: the name indexes agree with their copies and are still read in list order',
    async () => {
      for (const index of [
        'legal_entity_name_order_fts',
        'natural_person_name_order_fts',
        'legal_entity_name_order_grams',
        'natural_person_name_order_grams',
        'legal_entity_name_order_quadgrams',
        'natural_person_name_order_quadgrams',
      ]) {
        await expect(checkFtsIndex(db, index), index).resolves.toBeDefined();
      }
      const { rows: copies } = await sql<{
        company_name_folded: string;
        copied: string;
      }>`select legal_entities.company_name_folded, name.company_name_folded as copied
        from legal_entities join legal_entity_name_order name using (entity_id)`.execute(db);
      expect(copies.length).toBe(rows.legalEntities.length + 1);
      for (const copy of copies) expect(copy.copied).toBe(copy.company_name_folded);
      for (const [folded, index] of [
        ['etoile', 'legal_entity_name_order_quadgrams'],
        ['aer', 'legal_entity_name_order_fts'],
        ['ae', 'legal_entity_name_order_grams'],
      ] as const) {
        const plan = await queryPlanOf(
          db,
          namesInListOrderQuery('company', [{ column: 'company_name_folded', folded }]),
        );
        expect(
          plan.some((line) => line.includes('VIRTUAL TABLE INDEX') && line.includes(index)),
          plan.join('\n'),
        ).toBe(true);
      }
      const phonePlan = await queryPlanOf(
        db,
        naturalPersonSearchQuery(db, { phone: phoneQuery('+34 637 874 164') }),
      );
      expect(phonePlan.join('\n')).toContain('natural_persons_phone_international');
      expect(phonePlan.join('\n')).toContain('natural_persons_phone_national');
    },
  );

  it.runIf(testEngine === 'postgres')(
    'PostgreSQL: the trigram and phone indexes still serve the search',
    async () => {
      expect(
        await postgresPlanOf(legalEntitySearchQuery(db, { companyNameContains: 'etoile' })),
      ).toContain('legal_entities_company_name_trgm');
      const phonePlan = await postgresPlanOf(
        legalEntitySearchQuery(db, { phone: phoneQuery('637874163') }),
      );
      expect(phonePlan).toContain('legal_entities_phone_international');
      expect(phonePlan).toContain('legal_entities_phone_national');
    },
  );
});
