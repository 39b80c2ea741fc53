import { type Kysely, sql } from 'kysely';

/** The queue's filter columns as 0011 and 0023 index them. */
const FILTERS = ['kind', 'kyc_status', 'risk_level', 'country'];

export async function up(db: Kysely<unknown>): Promise<void> {
  // A queue item carries its assignee (0026): every queue index takes it along, so that pages and
  // counts still read an index alone; a named assignee becomes a leading filter like the others.
  for (const [prefix, where, order] of [
    ['entities_review_queue', 'next_kyc_review is not null', ['next_kyc_review', 'id']],
    ['entities_review_undated', 'next_kyc_review is null', ['id']],
  ] as const) {
    for (const leading of [undefined, ...FILTERS, 'assignee']) {
      const name = leading ? `${prefix}_${leading}` : prefix;
      const rest = [...FILTERS, 'assignee'].filter((column) => column !== leading);
      const keys = [
        ...(leading ? [leading] : []),
        ...order,
        ...rest,
        ...(order.length === 1 ? ['next_kyc_review'] : []),
      ];
      await sql`drop index if exists ${sql.raw(name)}`.execute(db);
      await sql`create index ${sql.raw(name)} on entities (${sql.raw(keys.join(', '))}) where ${sql.raw(where)}`.execute(
        db,
      );
    }
  }
}
