import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import {
  type EntitySubjectRow,
  withEntitySearchColumns,
  withLegalEntitySearchColumns,
  withNaturalPersonSearchColumns,
} from '../entities/read-model/search-columns.ts';
import type { SeedRows } from './generators.ts';

/** Rows per INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_STATEMENT = 500;

/** The tables a batch writes, parents before children. */
const SEEDED_TABLES = [
  'entities',
  'legal_entities',
  'natural_persons',
  'entity_links',
  'verifications',
  'documents',
  'document_chunks',
] as const;

/** Bulk writes for demo and benchmark data; the only place with the seed's SQL. */
export function seedRepository(db: Db) {
  return {
    /**
     * Writes first so the transaction holds the write lock before it reads: a second server
     * starting on the same DATA_DIR waits here, then sees the data, instead of failing.
     */
    async recordFirstStartCheck(at: Date): Promise<void> {
      await db
        .insertInto('app_settings')
        .values({ key: 'demo-data-checked-at', value: at.toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: at.toISOString() }))
        .execute();
    },

    async hasEntities(): Promise<boolean> {
      const row = await db.selectFrom('entities').select('id').limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /** `registration|COUNTRY` of every stored legal entity, registration normalised as the unique index compares it. */
    async registrationKeys(): Promise<Set<string>> {
      const rows = await db
        .selectFrom('legal_entities')
        .select(['registration_number_normalised', 'country'])
        .execute();
      return new Set(rows.map((row) => `${row.registration_number_normalised}|${row.country}`));
    },

    /** Inserts a batch in multi-row statements, parents before children; `db` may be a transaction. */
    async insert(rows: SeedRows): Promise<number> {
      const legalEntities = rows.legalEntities.map(withLegalEntitySearchColumns);
      const naturalPersons = rows.naturalPersons.map(withNaturalPersonSearchColumns);
      const subjects = new Map<string, EntitySubjectRow>(
        [...legalEntities, ...naturalPersons].map((subject) => [subject.entity_id, subject]),
      );
      const entities = rows.entities.map((entity) => {
        const subject = subjects.get(entity.id);
        if (!subject)
          throw new Error(`The seed's entity ${entity.id} has no legal entity or person`);
        return withEntitySearchColumns(entity, subject);
      });
      const tables = [
        ['entities', entities],
        ['legal_entities', legalEntities],
        ['natural_persons', naturalPersons],
        ['entity_links', rows.links],
        ['verifications', rows.verifications],
        ['documents', rows.documents],
        ['document_chunks', rows.documentChunks],
        // A table written here and missing from SEEDED_TABLES would keep its indexes in a first load.
      ] as const satisfies readonly (readonly [(typeof SEEDED_TABLES)[number], unknown])[];
      let written = 0;
      for (const [table, values] of tables) {
        for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
          const slice = values.slice(start, start + ROWS_PER_STATEMENT);
          await db.insertInto(table).values(slice).execute();
          written += slice.length;
        }
      }
      return written;
    },

    /**
     * PostgreSQL's statistics and visibility map, as autovacuum leaves a settled database: it
     * gathers them only a minute or so after a bulk load (a list page took 1.2 s at 100,000
     * entities instead of 80 ms), and without the map an index walk reads the table for every row
     * (a company search on a miss: 9.9 against 6.0 ms of database CPU). SQLite keeps 0038's fixed
     * statistics, as a server's own database does: ANALYZE would replace them with the seed's.
     */
    async refreshStatistics(): Promise<void> {
      if (engineOf(db) === 'postgres') await sql`vacuum (analyze)`.execute(db);
    },

    /**
     * Runs `load` in one transaction, all or nothing. On SQLite the secondary indexes of the
     * tables `insert` writes (unique ones kept) are dropped first and built after the load, one
     * sorted pass each: entered row by row, every entity rewrote a page of each of the 36 indexes
     * of entities. Their fixed planner statistics (0038) are put back.
     */
    loadWithIndexesBuiltAfter<T>(load: (trx: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        if (engineOf(trx) !== 'sqlite') return load(trx);
        const { rows: indexes } = await sql<{ name: string; sql: string }>`
          select name, sql from sqlite_master
          where type = 'index' and tbl_name in (${sql.join(SEEDED_TABLES)})
            and sql is not null and lower(sql) not like 'create unique%'`.execute(trx);
        const { rows: statistics } = await sql<{ tbl: string; idx: string; stat: string }>`
          select tbl, idx, stat from sqlite_stat1`.execute(trx);
        for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
        const result = await load(trx);
        for (const index of indexes) await sql.raw(index.sql).execute(trx);
        await sql`delete from sqlite_stat1`.execute(trx);
        for (const row of statistics) {
          await sql`insert into sqlite_stat1 (tbl, idx, stat) values (${row.tbl}, ${row.idx}, ${row.stat})`.execute(
            trx,
          );
        }
        await sql`analyze sqlite_schema`.execute(trx);
        return result;
      });
    },

    /** Runs `work` in one transaction; build repositories on the `trx` it receives. */
    inTransaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },
  };
}
