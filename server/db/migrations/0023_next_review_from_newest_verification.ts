import { type Kysely, sql } from 'kysely';
import { requestRebuild } from './helpers/0015-derived-data.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The seed took the earliest review date and create the earliest future one; decisions.md
  // now says the newest verification decides both kycStatus and nextKYCReview: repaired after the
  // migrations, with the list records of the entities it changes.
  await requestRebuild(
    db,
    'current-verifications',
    '0023_next_review_from_newest_verification',
    'verifications',
  );
  // The undated window (entities without a next review) walks and counts in an index alone, as
  // the dated windows do in 0011's: one without a leading filter, one per filter.
  const columns = ['kind', 'kyc_status', 'risk_level', 'country'];
  for (const leading of [undefined, ...columns]) {
    // next_kyc_review (always null here) rides along so that a page reads the index alone.
    const keys = [
      ...(leading ? [leading] : []),
      'id',
      ...columns.filter((column) => column !== leading),
      'next_kyc_review',
    ];
    await sql`create index ${sql.raw(leading ? `entities_review_undated_${leading}` : 'entities_review_undated')} on entities (${sql.raw(keys.join(', '))}) where next_kyc_review is null`.execute(
      db,
    );
  }
}
