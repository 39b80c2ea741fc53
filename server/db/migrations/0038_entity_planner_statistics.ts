import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/**
 * SQLite's planner statistics for the entities table (sqlite_stat1: rows, then rows per distinct
 * prefix of the index's columns), as ANALYZE measured them on the bench's seeded database of
 * 150,000 entities, with the assignee spread over a team (a tenth of the rows per assignee, as
 * ten reviewers would; the seed assigns no one). Fixed rather than gathered: ANALYZE holds the
 * write lock for its whole run (3.9 s at 100,000, so writers time out), and statistics gathered
 * while a database is small mislead the planner once it has grown. Without any, SQLite takes an
 * equality on any filter column for a 10-row range and walks a whole status or risk range for a
 * name; with these an entity-index page's p95 went from 35.6 to 12.7 ms and the queue's from
 * 14.3 to 1.4 ms (bench/sqlite-statistics-probe.ts, docs/performance.md).
 */
const ENTITY_STATISTICS: Record<string, string> = {
  sqlite_autoindex_entities_1: '150000 1',
  entities_external_id_folded: '150000 3',
  entities_order: '150000 1 1',
  entities_kind_order: '150000 75000 1 1',
  entities_index_name: '150000 2 1',
  entities_index_name_kind: '150000 75000 2 1',
  entities_index_name_kyc_status: '150000 21429 2 1',
  entities_index_name_risk_level: '150000 50000 2 1',
  entities_index_name_country: '150000 5000 2 1',
  entities_index_name_assignee: '150000 15000 2 1',
  entities_index_created_kyc_status: '150000 21429 1 1',
  entities_index_created_risk_level: '150000 50000 1 1',
  entities_index_created_country: '150000 5000 1 1',
  entities_index_created_assignee: '150000 15000 1 1',
  entities_index_nextReview: '150000 217 1',
  entities_index_nextReview_kind: '150000 75000 111 1',
  entities_index_nextReview_kyc_status: '150000 21429 32 1',
  entities_index_nextReview_risk_level: '150000 50000 73 1',
  entities_index_nextReview_country: '150000 5000 8 1',
  entities_index_nextReview_assignee: '150000 15000 217 1',
  entities_index_status: '150000 21429 1',
  entities_index_status_kind: '150000 75000 10715 1',
  entities_index_status_risk_level: '150000 50000 7143 1',
  entities_index_status_country: '150000 5000 715 1',
  entities_index_status_assignee: '150000 15000 21429 1',
  entities_review_queue: '118795 172 1 1 1 1 1 1',
  entities_review_queue_kind: '118795 59398 88 1 1 1 1 1',
  entities_review_queue_kyc_status: '118795 16971 25 1 1 1 1 1',
  entities_review_queue_risk_level: '118795 39599 58 1 1 1 1 1',
  entities_review_queue_country: '118795 3960 6 1 1 1 1 1',
  entities_review_queue_assignee: '118795 11880 172 1 1 1 1 1',
  entities_review_undated: '31205 1 1 1 1 1 1 1',
  entities_review_undated_kind: '31205 15603 1 1 1 1 1 1',
  entities_review_undated_kyc_status: '31205 4458 1 1 1 1 1 1',
  entities_review_undated_risk_level: '31205 10402 1 1 1 1 1 1',
  entities_review_undated_country: '31205 1041 1 1 1 1 1 1',
  entities_review_undated_assignee: '31205 3121 1 1 1 1 1 1',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0028's and 0029's assignee-leading indexes serve every assignee range: with statistics,
  // SQLite skip-scanned this one for the undated window (96 ms instead of 1 ms at 100,000).
  await sql`drop index if exists entities_assignee_queue`.execute(db);
  if (engineOf(db) === 'postgres') return;
  // ANALYZE of the schema table alone gathers nothing: it creates sqlite_stat1 where missing.
  await sql`analyze sqlite_schema`.execute(db);
  await sql`delete from sqlite_stat1 where tbl = 'entities'`.execute(db);
  // A build with STAT4 (better-sqlite3's) keeps ANALYZE's samples there too: gone with the rest.
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from sqlite_master where name = 'sqlite_stat4'`.execute(db);
  if (rows[0]?.n) await sql`delete from sqlite_stat4 where tbl = 'entities'`.execute(db);
  for (const [index, stat] of Object.entries(ENTITY_STATISTICS)) {
    await sql`insert into sqlite_stat1 (tbl, idx, stat) values ('entities', ${index}, ${stat})`.execute(
      db,
    );
  }
  // Loads the rows into this connection's planner; other connections reload on the schema change.
  await sql`analyze sqlite_schema`.execute(db);
}
