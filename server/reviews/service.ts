import {
  REVIEW_WINDOW_DAYS,
  type ReviewItem,
  type ReviewQueuePage,
  type ReviewQueueQuery,
  type ReviewWindow,
  type TakeNext,
} from '../../contract/reviews.ts';
import { isoDateSchema } from '../../contract/common.ts';
import type { Caller } from '../auth/caller.ts';
import { createPageCache, createVersionedCache } from '../db/versioned-cache.ts';
import type { Db } from '../db/database.ts';
import { refreshListRecords } from '../entities/read-model/list-records.ts';
import { csvLine } from '../http/csv.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import {
  type ReviewDateRange,
  type ReviewKey,
  type ReviewQueueFilter,
  type ReviewQueueRow,
  type ReviewWindowCounts,
  reviewsRepository,
} from './repository.ts';

const DAY_MS = 86_400_000;

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return utcDateOf(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
}

/** The dates a window spans on `today`, both ends included. */
export function rangeOf(window: ReviewWindow, today: string): ReviewDateRange {
  switch (window) {
    case 'overdue':
      return { to: addDays(today, -1) };
    case '7d':
    case '30d':
      return { from: today, to: addDays(today, REVIEW_WINDOW_DAYS[window]) };
    case 'all':
      return {};
    case 'undated':
      return { undated: true };
    case 'responded':
      return { responded: true };
  }
}

/** The cursor of an item: its date ('' when undated) and id. */
function cursorOf(key: ReviewKey): string {
  return encodeCursor([key.date, key.id]);
}

function keyOfCursor(cursor: string): ReviewKey {
  return decodeCursor(cursor, ([date, id, ...rest]) =>
    typeof date === 'string' &&
    (date === '' || isoDateSchema.safeParse(date).success) &&
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 100 &&
    !/\p{Cc}/u.test(id) &&
    rest.length === 0
      ? { date, id }
      : undefined,
  );
}

/** The assignee filter as the repository reads it: `me` is the caller, `none` nobody. */
function assigneeOf(
  assignee: string | undefined,
  caller: string,
): Pick<ReviewQueueFilter, 'assignee'> {
  if (assignee === undefined) return {};
  if (assignee === 'me') return { assignee: caller };
  if (assignee === 'none') return { assignee: null };
  return { assignee };
}

function filterOf(
  query: Omit<ReviewQueueQuery, 'due' | 'limit' | 'cursor' | 'format'>,
): ReviewQueueFilter {
  return {
    ...(query.type === 'legal-entities' ? { kind: 'legal' as const } : {}),
    ...(query.type === 'natural-persons' ? { kind: 'person' as const } : {}),
    ...(query.status === undefined ? {} : { kycStatus: query.status }),
    ...(query.riskLevel === undefined ? {} : { riskLevel: query.riskLevel }),
    ...(query.country === undefined ? {} : { country: query.country }),
  };
}

function itemOf(row: ReviewQueueRow): ReviewItem {
  const legal = row.kind === 'legal';
  return {
    entityId: row.id,
    type: legal ? 'Legal Entity' : 'Natural Person',
    name: legal
      ? (row.company_name ?? '')
      : [row.first_name, row.middle_name, row.last_name].filter(Boolean).join(' '),
    country: row.country,
    kycStatus: row.kyc_status,
    riskLevel: row.risk_level,
    nextReviewDate: row.next_kyc_review,
    assignedUser: row.assignee,
    cursor: cursorOf({ date: row.next_kyc_review ?? '', id: row.id }),
  };
}

/** Filter combinations whose counts are kept; past this the least recently used go first. */
const MAX_KEPT_COUNTS = 500;

/** The windows the queue counts, as of `today`. */
export function countedWindows(today: string): Record<keyof ReviewWindowCounts, ReviewDateRange> {
  return {
    overdue: rangeOf('overdue', today),
    due7: rangeOf('7d', today),
    due30: rangeOf('30d', today),
    undated: rangeOf('undated', today),
    all: rangeOf('all', today),
  };
}

/**
 * The counts of every window per day and filter, kept until the entity data changes: counting
 * grows with the entities matched (about 60 ms at a million for the overdue window), while the
 * page itself is a short index range.
 */
export function createWindowCounts(db: Db) {
  const kept = createVersionedCache<ReviewWindowCounts>(db, { entries: MAX_KEPT_COUNTS });
  return function windowCounts(
    today: string,
    filter: ReviewQueueFilter,
    /** The entity data's version read as the request began (createVersionedCache). */
    versionAtStart?: string,
  ): Promise<ReviewWindowCounts> {
    return kept.get(
      `${today} ${JSON.stringify(filter)}`,
      () => reviewsRepository(db).counts(countedWindows(today), filter),
      versionAtStart,
    );
  };
}

export type WindowCounts = ReturnType<typeof createWindowCounts>;

/**
 * What the review queue keeps: the window counts, and the pages asked again (per day, window,
 * filter with `assignee=me` per caller, cursor and limit) until the entity data or a
 * client-update request changes (migration 0043).
 */
export function createReviewQueueKept(db: Db) {
  return { windowCounts: createWindowCounts(db), pages: createPageCache<ReviewQueuePage>(db) };
}

export type ReviewQueueKept = ReturnType<typeof createReviewQueueKept>;

/** One page of the review queue on the day of `now` (UTC), with the counts of every window. */
export async function reviewQueuePage(
  db: Db,
  kept: ReviewQueueKept,
  query: ReviewQueueQuery,
  now: Date,
  caller: Pick<Caller, 'username' | 'entityDataVersion'>,
): Promise<ReviewQueuePage> {
  const today = utcDateOf(now);
  const filter = { ...filterOf(query), ...assigneeOf(query.assignee, caller.username) };
  const after = query.cursor === undefined ? undefined : keyOfCursor(query.cursor);
  const key = JSON.stringify([today, query.due, filter, query.cursor, query.limit]);
  return kept.pages.get(
    key,
    async () => {
      // One row more than asked tells whether a next page exists.
      const rows = await reviewsRepository(db).page(
        rangeOf(query.due, today),
        filter,
        after,
        query.limit + 1,
      );
      const items = rows.slice(0, query.limit).map(itemOf);
      return {
        code: 200,
        status: 'success',
        message: '',
        data: items,
        nextCursor: rows.length > query.limit ? (items.at(-1)?.cursor ?? null) : null,
        counts: {
          ...(await kept.windowCounts(today, filter, caller.entityDataVersion)),
          responded: await reviewsRepository(db).respondedCount(filter),
        },
        today,
      };
    },
    caller.entityDataVersion,
  );
}

/**
 * Assigns the soonest-due unassigned entity of the window and filters to the caller, with its
 * audit event in the same transaction; undefined when none is left.
 */
export async function takeNext(
  db: Db,
  request: TakeNext,
  now: Date,
  caller: string,
  audit: (transaction: Db, entityId: string) => Promise<void>,
): Promise<ReviewItem | undefined> {
  const range = rangeOf(request.due, utcDateOf(now));
  const row = await db.transaction().execute(async (transaction) => {
    const repository = reviewsRepository(transaction);
    const id = await repository.takeNext(range, filterOf(request), caller);
    if (id === undefined) return undefined;
    await refreshListRecords(transaction, [id]);
    await audit(transaction, id);
    return repository.row(id);
  });
  return row && itemOf(row);
}

/** Rows the CSV export reads at a time: memory stays flat whatever the queue holds. */
const CSV_ROWS_PER_READ = 1000;

export const REVIEW_CSV_COLUMNS = [
  'entityId',
  'type',
  'name',
  'country',
  'kycStatus',
  'riskLevel',
  'nextReviewDate',
  'assignedUser',
] as const;

/** Every item of the window and filters, in queue order, as CSV (what the pages would list). */
export async function* reviewQueueCsvLines(
  db: Db,
  query: Omit<ReviewQueueQuery, 'limit' | 'cursor' | 'format'>,
  now: Date,
  caller: string,
): AsyncGenerator<string> {
  yield `${REVIEW_CSV_COLUMNS.join(',')}\r\n`;
  const range = rangeOf(query.due, utcDateOf(now));
  const filter = { ...filterOf(query), ...assigneeOf(query.assignee, caller) };
  const repository = reviewsRepository(db);
  let after: ReviewKey | undefined;
  for (;;) {
    const rows = await repository.page(range, filter, after, CSV_ROWS_PER_READ);
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(REVIEW_CSV_COLUMNS, itemOf(row))).join('');
    const last = rows.at(-1);
    if (rows.length < CSV_ROWS_PER_READ || !last) return;
    after = { date: last.next_kyc_review ?? '', id: last.id };
  }
}
