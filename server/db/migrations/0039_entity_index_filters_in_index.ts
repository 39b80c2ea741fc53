import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/**
 * SQLite's entity-index indexes led by a filter (0029, 0030) rebuilt with the other filters after
 * the key, each with its planner statistics (0038's, a 1 for each added column). A page led by the
 * rarest filter tests the others in the index and reads only the rows it returns: at 1,500,000
 * entities its p95 went from 17 to 6 ms and its worst from 157 to 54 ms (docs/entity-index.md).
 * PostgreSQL tests a filter on the row it has read, whatever the index holds: unchanged there.
 */
const INDEXES: Record<string, { columns: string; stat: string }> = {
  entities_kind_order: {
    columns: 'kind, created_at, id, kyc_status, risk_level, country, assignee',
    stat: '150000 75000 1 1 1 1 1 1',
  },
  entities_index_name_kind: {
    columns: 'kind, name_order, id, kyc_status, risk_level, country, assignee',
    stat: '150000 75000 2 1 1 1 1 1',
  },
  entities_index_name_kyc_status: {
    columns: 'kyc_status, name_order, id, kind, risk_level, country, assignee',
    stat: '150000 21429 2 1 1 1 1 1',
  },
  entities_index_name_risk_level: {
    columns: 'risk_level, name_order, id, kind, kyc_status, country, assignee',
    stat: '150000 50000 2 1 1 1 1 1',
  },
  entities_index_name_country: {
    columns: 'country, name_order, id, kind, kyc_status, risk_level, assignee',
    stat: '150000 5000 2 1 1 1 1 1',
  },
  entities_index_name_assignee: {
    columns: 'assignee, name_order, id, kind, kyc_status, risk_level, country',
    stat: '150000 15000 2 1 1 1 1 1',
  },
  entities_index_created_kyc_status: {
    columns: 'kyc_status, created_at, id, kind, risk_level, country, assignee',
    stat: '150000 21429 1 1 1 1 1 1',
  },
  entities_index_created_risk_level: {
    columns: 'risk_level, created_at, id, kind, kyc_status, country, assignee',
    stat: '150000 50000 1 1 1 1 1 1',
  },
  entities_index_created_country: {
    columns: 'country, created_at, id, kind, kyc_status, risk_level, assignee',
    stat: '150000 5000 1 1 1 1 1 1',
  },
  entities_index_created_assignee: {
    columns: 'assignee, created_at, id, kind, kyc_status, risk_level, country',
    stat: '150000 15000 1 1 1 1 1 1',
  },
  entities_index_nextReview_kind: {
    columns:
      "kind, coalesce(next_kyc_review, '9999-12-31'), id, kyc_status, risk_level, country, assignee",
    stat: '150000 75000 111 1 1 1 1 1',
  },
  entities_index_nextReview_kyc_status: {
    columns:
      "kyc_status, coalesce(next_kyc_review, '9999-12-31'), id, kind, risk_level, country, assignee",
    stat: '150000 21429 32 1 1 1 1 1',
  },
  entities_index_nextReview_risk_level: {
    columns:
      "risk_level, coalesce(next_kyc_review, '9999-12-31'), id, kind, kyc_status, country, assignee",
    stat: '150000 50000 73 1 1 1 1 1',
  },
  entities_index_nextReview_country: {
    columns:
      "country, coalesce(next_kyc_review, '9999-12-31'), id, kind, kyc_status, risk_level, assignee",
    stat: '150000 5000 8 1 1 1 1 1',
  },
  entities_index_nextReview_assignee: {
    columns:
      "assignee, coalesce(next_kyc_review, '9999-12-31'), id, kind, kyc_status, risk_level, country",
    stat: '150000 15000 217 1 1 1 1 1',
  },
  entities_index_status: {
    columns: 'kyc_status, id, kind, risk_level, country, assignee',
    stat: '150000 21429 1 1 1 1 1',
  },
  entities_index_status_kind: {
    columns: 'kind, kyc_status, id, risk_level, country, assignee',
    stat: '150000 75000 10715 1 1 1 1',
  },
  entities_index_status_risk_level: {
    columns: 'risk_level, kyc_status, id, kind, country, assignee',
    stat: '150000 50000 7143 1 1 1 1',
  },
  entities_index_status_country: {
    columns: 'country, kyc_status, id, kind, risk_level, assignee',
    stat: '150000 5000 715 1 1 1 1',
  },
  entities_index_status_assignee: {
    columns: 'assignee, kyc_status, id, kind, risk_level, country',
    stat: '150000 15000 21429 1 1 1 1',
  },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') return;
  for (const [index, { columns, stat }] of Object.entries(INDEXES)) {
    // Dropping an index deletes its sqlite_stat1 row: written again after.
    await sql`drop index ${sql.id(index)}`.execute(db);
    await sql`create index ${sql.id(index)} on entities (${sql.raw(columns)})`.execute(db);
    await sql`insert into sqlite_stat1 (tbl, idx, stat) values ('entities', ${index}, ${stat})`.execute(
      db,
    );
  }
  // Loads the rows into this connection's planner; other connections reload on the schema change.
  await sql`analyze sqlite_schema`.execute(db);
}
