import { type Kysely, sql } from 'kysely';

/** The entity index's sort keys as 0029 indexes them (the planner matches the expression's text). */
const SORTS = {
  name: 'name_order',
  created: 'created_at',
  nextReview: "coalesce(next_kyc_review, '9999-12-31')",
  status: 'kyc_status',
} as const;

/** 0036's group, the filter columns, in the order its counts table keys them. */
const GROUP = ['kind', 'kyc_status', 'risk_level', 'country', 'assignee'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each sort after the whole group: a page over few groups is one short range per group, merged,
  // however the filters correlate with the order. Status is in the group, so it sorts by id there.
  for (const [sort, key] of Object.entries(SORTS)) {
    const columns = [...GROUP, ...(sort === 'status' ? [] : [key]), 'id'].join(', ');
    await sql`create index ${sql.raw(`entities_group_${sort}`)} on entities (${sql.raw(columns)})`.execute(
      db,
    );
  }
}
