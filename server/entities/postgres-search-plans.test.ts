import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Compilable, CompiledQuery, sql } from 'kysely';
import { foldForSearch } from '../../contract/search-text.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createGenerator } from '../seed/generators.ts';
import { seedRepository } from '../seed/seed-repository.ts';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { MAX_SEARCH_RESULTS, type SearchPlan } from './read-model/dialect.ts';
import {
  legalEntitySearchQuery,
  naturalPersonSearchQuery,
  readModelRepository,
} from './read-model/repository.ts';

let dataDir: string;
let databaseUrl: string | undefined;
let db: Db;
let companyNames: string[] = [];
let lastNames: string[] = [];

/**
 * PostgreSQL's plan for a query a repository builds (EXPLAIN), as one text. Reading the whole
 * table is ruled out: on a table this small it is the cheapest plan, at 100,000 names it is not.
 */
function planOf(query: Compilable): Promise<string> {
  const compiled = query.compile();
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

/** The one- or two-character pieces of the folded names with how many names hold each. */
function holders(names: readonly string[], width: 1 | 2): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) {
    const characters = Array.from(foldForSearch(name));
    const pieces = new Set<string>();
    for (let start = 0; start + width <= characters.length; start++)
      pieces.add(characters.slice(start, start + width).join(''));
    for (const piece of pieces) counts.set(piece, (counts.get(piece) ?? 0) + 1);
  }
  return counts;
}

/** A letter pair that 1 to 5 of the names hold, and the character most of them hold. */
function rareAndCommon(names: readonly string[]): { rare: string; common: string } {
  const pairs = [...holders(names, 2)].filter(([pair]) => /^[a-z]{2}$/.test(pair));
  const rare = pairs.find(([, count]) => count >= 1 && count <= 5)?.[0];
  const common = [...holders(names, 1)].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (rare === undefined || common === undefined) throw new Error('no rare pair in the names');
  return { rare, common };
}

describe.runIf(testEngine === 'postgres')('PostgreSQL: fragments too short for a trigram', () => {
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-pg-search-plans-'));
    databaseUrl = await newTestDatabaseUrl();
    ({ db } = await openDatabase(dataDir, databaseUrl));
    const rows = createGenerator({
      seed: 0x9a11,
      now: new Date(),
      newId: () => crypto.randomUUID(),
      takenRegistrations: new Set(),
      documentsPerEntity: 0,
    }).batch(4000, 4000);
    await seedRepository(db).inTransaction((trx) => seedRepository(trx).insert(rows));
    // As autovacuum would: the new names leave the GIN indexes' pending lists, the planner has counts.
    await sql`vacuum analyze legal_entities, natural_persons`.execute(db);
    companyNames = rows.legalEntities.map((row) => row.company_name);
    lastNames = rows.naturalPersons.map((row) => row.last_name);
    // 8,000 rows through every trigger and GIN index: 25-45 s on a busy two-core machine.
  }, 120_000);

  afterAll(async () => {
    await db.destroy();
    await dropTestDatabaseUrl(databaseUrl);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('a company-name pair few names hold is looked up in the n-gram index, a common character walks in list order', async () => {
    const { rare, common } = rareAndCommon(companyNames);
    const planFor = (text: string, plan: SearchPlan = 'best') =>
      planOf(legalEntitySearchQuery(db, { companyNameContains: text }, plan));
    expect(await planFor(rare)).toContain('legal_entities_company_name_grams');
    expect(await planFor(rare, 'walk')).not.toContain('_grams');
    const commonPlan = await planFor(common);
    expect(commonPlan).toContain('legal_entities_search_order');
    // The pieces are still tested on the names LIKE lets through, but the index is not read.
    expect(commonPlan).not.toContain('Index Scan on legal_entities_company_name_grams');
  });

  it('a last-name pair few names hold is looked up in the n-gram index', async () => {
    const { rare } = rareAndCommon(lastNames);
    expect(
      await planOf(naturalPersonSearchQuery(db, { lastNameContains: rare.toUpperCase() })),
    ).toContain('natural_persons_last_name_grams');
  });

  it('both plans give the same answers, as many as LIKE finds up to the cap', async () => {
    const repository = readModelRepository(db);
    const { rare, common } = rareAndCommon(companyNames);
    for (const fragment of [rare, common, 'ß', 'zz']) {
      const best = await repository.searchLegalEntities({ companyNameContains: fragment });
      expect(best, fragment).toEqual(
        await repository.searchLegalEntities({ companyNameContains: fragment }, 'walk'),
      );
      const holding = companyNames.filter((name) =>
        foldForSearch(name).includes(foldForSearch(fragment)),
      ).length;
      expect(best, fragment).toHaveLength(Math.min(holding, MAX_SEARCH_RESULTS));
    }
  });
});
