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
  namesByProbeQuery,
  namesByProbeThenWalk,
  namesByWalkQuery,
} from './read-model/postgres/repository.ts';
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
function planOf(query: Compilable, { tableScans = false } = {}): Promise<string> {
  const compiled = query.compile();
  return db.transaction().execute(async (trx) => {
    if (!tableScans) await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

/** The one- to three-character pieces of the folded names with how many names hold each. */
function holders(names: readonly string[], width: 1 | 2 | 3): Map<string, number> {
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

/** The probe's limit in these tests: 4,000 names hold few fragments past the server's 2,000. */
const PROBE_LIMIT = 50;

/** The trigram of letters fewest names hold (within the probe's limit), and the one most hold. */
function rareAndCommonTrigrams(names: readonly string[]): { rare: string; common: string } {
  const trigrams = [...holders(names, 3)]
    .filter(([trigram]) => /^[a-z]{3}$/.test(trigram))
    .sort((a, b) => a[1] - b[1]);
  const rare = trigrams[0];
  const common = trigrams.at(-1);
  if (!rare || !common || rare[1] > PROBE_LIMIT || common[1] <= PROBE_LIMIT * 4)
    throw new Error('the names hold no rare trigram or none common enough to walk');
  return { rare: rare[0], common: common[0] };
}

describe.runIf(testEngine === 'postgres')('PostgreSQL: name search plans', () => {
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

  it('names alone: a rare fragment is read whole from the trigram index, a common one stops the probe and walks in list order', async () => {
    for (const [kind, names, column] of [
      ['company', companyNames, 'company_name_folded'],
      ['person', lastNames, 'last_name_folded'],
    ] as const) {
      const { rare, common } = rareAndCommonTrigrams(names);
      const probe = (folded: string) => namesByProbeQuery(kind, [{ column, folded }], PROBE_LIMIT);
      const rarePlan = await planOf({ compile: () => probe(rare).compile(db) });
      expect(rarePlan, rarePlan).toMatch(/Bitmap Index Scan on \w+_name_trgm/);
      expect(rarePlan).not.toContain('_search_order');
      // The probe counts what it read: within the limit it holds every match, past it the walk serves.
      const matches = async (folded: string) =>
        Number((await probe(folded).execute(db)).rows[0]?.matches ?? 0);
      expect(await matches(rare)).toBeLessThanOrEqual(PROBE_LIMIT);
      expect(await matches(common)).toBe(PROBE_LIMIT + 1);
      // Table scans allowed: the walk must win over reading every name and sorting on its own.
      const walkPlan = await planOf(
        { compile: () => namesByWalkQuery(kind, [{ column, folded: common }]).compile(db) },
        { tableScans: true },
      );
      // In list order along the search-order index, which holds the names: no sort, no name index.
      expect(walkPlan, walkPlan).toMatch(
        /^Limit .*\n\s*-> {2}Index Only Scan using \w+_search_order /,
      );
      expect(walkPlan).not.toMatch(/Sort|_trgm|_grams/);
    }
  });

  it('names alone: the probe and the walk answer as the one query does, oldest first, up to the cap', async () => {
    const repository = readModelRepository(db);
    const companies = rareAndCommonTrigrams(companyNames);
    const people = rareAndCommonTrigrams(lastNames);
    const probedOrWalked = (kind: 'company' | 'person', fragments: Record<string, string>) =>
      namesByProbeThenWalk(
        db,
        kind,
        Object.entries(fragments).map(([column, text]) => ({
          column,
          folded: foldForSearch(text),
        })),
        PROBE_LIMIT,
      );
    for (const fragment of [companies.rare, companies.common, 'GMBH', ' ', 'e', '%', 'o’c']) {
      const oneQuery = (
        await legalEntitySearchQuery(db, { companyNameContains: fragment }).execute()
      ).map((row) => row.entity_id);
      expect(await probedOrWalked('company', { company_name_folded: fragment }), fragment).toEqual(
        oneQuery,
      );
      expect(await repository.searchLegalEntities({ companyNameContains: fragment })).toEqual(
        oneQuery,
      );
    }
    for (const [search, fragments] of [
      [{ lastNameContains: people.rare }, { last_name_folded: people.rare }],
      [{ lastNameContains: people.common }, { last_name_folded: people.common }],
      [
        { lastNameContains: 'SON', firstNameContains: 'a' },
        { last_name_folded: 'SON', first_name_folded: 'a' },
      ],
    ] as const) {
      const oneQuery = (await naturalPersonSearchQuery(db, search).execute()).map(
        (row) => row.entity_id,
      );
      expect(await probedOrWalked('person', fragments), JSON.stringify(search)).toEqual(oneQuery);
      expect(await repository.searchNaturalPersons(search)).toEqual(oneQuery);
    }
  });

  it('both plans give the same answers, as many as LIKE finds up to the cap', async () => {
    const repository = readModelRepository(db);
    const { rare, common } = rareAndCommon(companyNames);
    const trigrams = rareAndCommonTrigrams(companyNames);
    for (const fragment of [rare, common, 'ß', 'zz', trigrams.rare, trigrams.common]) {
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
