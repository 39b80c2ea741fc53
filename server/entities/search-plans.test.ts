import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/database.ts';
import type { Db } from '../db/database.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { phoneQuery } from './read-model/phone-search.ts';
import {
  legalEntitySearchQuery,
  naturalPersonSearchQuery,
  type LegalEntitySearch,
  type NaturalPersonSearch,
} from './read-model/repository.ts';
import { namesInListOrderQuery } from './read-model/sqlite/repository.ts';

let dataDir: string;
let db: Db;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-search-plans-'));
  ({ db } = await openDatabase(dataDir));
});

afterAll(async () => {
  await db.destroy();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Table scans in a plan, apart from a name index (a virtual table) reading its own matches. */
function scans(plan: string[]): string[] {
  return plan.filter((line) => line.startsWith('SCAN ') && !line.includes('VIRTUAL TABLE'));
}

/** A plan that reads a name index in list order and sorts only the answers. */
function expectReadInListOrder(plan: string[], index: string) {
  expect(
    plan.some((line) => line.includes('VIRTUAL TABLE INDEX') && line.includes(index)),
    plan.join('\n'),
  ).toBe(true);
  // The late names, a short list, are read whole; the others are subquery results.
  expect(
    scans(plan).filter((line) => !line.startsWith('SCAN (subquery')),
    plan.join('\n'),
  ).toEqual(['SCAN late']);
  // The only sort is of the (at most 500) answers merged with the late ones.
  expect(plan.filter((line) => line.includes('TEMP B-TREE'))).toEqual([
    'USE TEMP B-TREE FOR ORDER BY',
  ]);
}

describe('legal-entity search query plans', () => {
  it.each<[string, LegalEntitySearch, string[]]>([
    ['registrationNumber', { registrationNumber: 'HRB 1' }, ['legal_entities_registration']],
    ['glei', { glei: '5493001KJTIIGC8Y1R12' }, ['legal_entities_glei']],
    ['externalID', { externalId: 'CRM-1' }, ['entities_external_id_folded']],
    ['duns', { duns: '004567890' }, ['legal_entities_duns']],
    [
      'phone',
      { phone: phoneQuery('020 7946 0000') },
      ['legal_entities_phone_international', 'legal_entities_phone_national'],
    ],
    ['email', { primaryContactEmail: 'a@example.com' }, ['natural_persons_email_folded']],
  ])('%s is looked up in its indexes, no table is scanned', async (_name, search, indexes) => {
    const plan = await queryPlanOf(db, legalEntitySearchQuery(db, search));
    for (const index of indexes)
      expect(
        plan.some((line) => line.includes(` INDEX ${index} (`)),
        plan.join('\n'),
      ).toBe(true);
    expect(scans(plan)).toEqual([]);
  });

  it('companyName reads the quadgram or trigram index in list order, or walks the covering search-order index', async () => {
    for (const [folded, index] of [
      ['straße', 'legal_entity_name_order_quadgrams'],
      ['str', 'legal_entity_name_order_fts'],
    ] as const) {
      expectReadInListOrder(
        await queryPlanOf(
          db,
          namesInListOrderQuery('company', [{ column: 'company_name_folded', folded }]),
        ),
        index,
      );
    }
    expect(
      await queryPlanOf(db, legalEntitySearchQuery(db, { companyNameContains: 'straße' })),
    ).toEqual(['SCAN legal_entities USING COVERING INDEX legal_entities_search_order']);
  });

  it('a companyName too short for a trigram reads the n-gram index in list order', async () => {
    for (const folded of ['ß', 'ss', 'ö']) {
      expectReadInListOrder(
        await queryPlanOf(
          db,
          namesInListOrderQuery('company', [{ column: 'company_name_folded', folded }]),
        ),
        'legal_entity_name_order_grams',
      );
    }
  });

  it("companyName with another parameter is tested beside that parameter's index", async () => {
    const plan = await queryPlanOf(
      db,
      legalEntitySearchQuery(db, { companyNameContains: 'straße', duns: '004567890' }),
    );
    expect(plan[0], plan.join('\n')).toContain('INDEX legal_entities_duns (');
    expect(scans(plan)).toEqual([]);
  });
});

describe('natural-person search query plans', () => {
  it.each<[string, NaturalPersonSearch, string[]]>([
    ['email', { email: 'zoe@example.com' }, ['natural_persons_email_folded']],
    [
      'phone',
      { phone: phoneQuery('+44 20 7946 0000') },
      ['natural_persons_phone_international', 'natural_persons_phone_national'],
    ],
    ['externalID', { externalId: 'CRM-1' }, ['entities_external_id_folded']],
  ])('%s is looked up in its indexes, no table is scanned', async (_name, search, indexes) => {
    const plan = await queryPlanOf(db, naturalPersonSearchQuery(db, search));
    for (const index of indexes)
      expect(
        plan.some((line) => line.includes(` INDEX ${index} (`)),
        plan.join('\n'),
      ).toBe(true);
    expect(scans(plan)).toEqual([]);
  });

  it('firstName and lastName read the quadgram, trigram or n-gram index, or walk the covering search-order index', async () => {
    const search = { firstNameContains: 'zoë', lastNameContains: 'straße' };
    for (const [first, last, index] of [
      ['zoë', 'straße', 'natural_person_name_order_quadgrams'],
      ['zoë', 'str', 'natural_person_name_order_fts'],
      ['zo', 'ß', 'natural_person_name_order_grams'],
    ] as const) {
      expectReadInListOrder(
        await queryPlanOf(
          db,
          namesInListOrderQuery('person', [
            { column: 'first_name_folded', folded: first },
            { column: 'last_name_folded', folded: last },
          ]),
        ),
        index,
      );
    }
    expect(await queryPlanOf(db, naturalPersonSearchQuery(db, search))).toEqual([
      'SCAN natural_persons USING COVERING INDEX natural_persons_search_order',
    ]);
  });
});
