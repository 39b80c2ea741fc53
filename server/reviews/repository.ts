import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { takeFirstPrepared } from '../db/prepared-statements.ts';

/**
 * A range of next review dates, `YYYY-MM-DD`, both ends included; an open end is unbounded. `undated`
 * is instead the entities without a next review date.
 */
export interface ReviewDateRange {
  from?: string;
  to?: string;
  undated?: true;
  /** Instead of dates: legal entities with a submitted, unreviewed client response. */
  responded?: true;
}

export interface ReviewQueueFilter {
  kind?: 'legal' | 'person';
  kycStatus?: string;
  riskLevel?: string;
  country?: string;
  /** A username, or null for the unassigned entities; absent: everyone's. */
  assignee?: string | null;
}

/** A position in the queue order: after this date and id (undated: after this id, date ''). */
export interface ReviewKey {
  date: string;
  id: string;
}

export interface ReviewQueueRow {
  id: string;
  kind: 'legal' | 'person';
  kyc_status: string;
  risk_level: string;
  country: string | null;
  next_kyc_review: string | null;
  assignee: string | null;
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
}

export interface ReviewWindowCounts {
  overdue: number;
  due7: number;
  due30: number;
  undated: number;
  /** Every entity with a next review date: the `all` window. */
  all: number;
}

/** Legal entities with a client-update request in state `submitted` (0027's state index). */
function respondedIds(eb: Entities) {
  return eb
    .selectFrom('client_update_requests')
    .select('client_update_requests.entity_id')
    .where('client_update_requests.state', '=', 'submitted');
}

type Entities = ExpressionBuilder<Database, 'entities'>;

/** Undated and responded entities have no date to order by: by id alone. */
function byIdOnly(range: ReviewDateRange): boolean {
  return range.undated === true || range.responded === true;
}

/**
 * The window and the filters, every column one of the entities_review_queue indexes (0011), or
 * of the entities_review_undated ones (0023) for the undated window; a named assignee leads
 * 0028's.
 */
function inQueue(eb: Entities, range: ReviewDateRange, filter: ReviewQueueFilter) {
  return eb.and([
    range.responded
      ? eb('entities.id', 'in', respondedIds(eb))
      : eb('entities.next_kyc_review', range.undated ? 'is' : 'is not', null),
    ...(range.from === undefined ? [] : [eb('entities.next_kyc_review', '>=', range.from)]),
    ...(range.to === undefined ? [] : [eb('entities.next_kyc_review', '<=', range.to)]),
    ...(filter.kind === undefined ? [] : [eb('entities.kind', '=', filter.kind)]),
    ...(filter.kycStatus === undefined ? [] : [eb('entities.kyc_status', '=', filter.kycStatus)]),
    ...(filter.riskLevel === undefined ? [] : [eb('entities.risk_level', '=', filter.riskLevel)]),
    ...(filter.country === undefined ? [] : [eb('entities.country', '=', filter.country)]),
    ...(filter.assignee === undefined
      ? []
      : [eb('entities.assignee', filter.assignee === null ? 'is' : '=', filter.assignee)]),
  ]);
}

/** The columns of a queue item, a person's or a legal entity's name among them. */
function queueRows(db: Db) {
  return db
    .selectFrom('entities')
    .leftJoin('legal_entities', 'legal_entities.entity_id', 'entities.id')
    .leftJoin('natural_persons', 'natural_persons.entity_id', 'entities.id')
    .select([
      'entities.id',
      'entities.kind',
      'entities.kyc_status',
      'entities.risk_level',
      'entities.country',
      'entities.next_kyc_review',
      'entities.assignee',
      'legal_entities.company_name',
      'natural_persons.first_name',
      'natural_persons.middle_name',
      'natural_persons.last_name',
    ]);
}

export function reviewsRepository(db: Db) {
  return {
    /** The page query alone, exported for the query-plan tests. */
    pageQuery(
      range: ReviewDateRange,
      filter: ReviewQueueFilter,
      after: ReviewKey | undefined,
      limit: number,
    ) {
      return (
        queueRows(db)
          .where((eb) => inQueue(eb, range, filter))
          .$if(after !== undefined && byIdOnly(range), (query) =>
            query.where('entities.id', '>', after?.id ?? ''),
          )
          .$if(after !== undefined && !byIdOnly(range), (query) =>
            query.where((eb) =>
              eb(
                eb.refTuple('entities.next_kyc_review', 'entities.id'),
                '>',
                eb.tuple(after?.date ?? '', after?.id ?? ''),
              ),
            ),
          )
          // Undated entities have no date to order by: by id alone, as their index holds them.
          .$if(!byIdOnly(range), (query) => query.orderBy('entities.next_kyc_review'))
          .orderBy('entities.id')
          .limit(limit)
      );
    },

    /** Up to `limit` entities of the window after `after`, soonest first, then by id. */
    async page(
      range: ReviewDateRange,
      filter: ReviewQueueFilter,
      after: ReviewKey | undefined,
      limit: number,
    ): Promise<ReviewQueueRow[]> {
      const rows = await this.pageQuery(range, filter, after, limit).execute();
      return rows;
    },

    /**
     * Assigns the first unassigned entity of the window and filters (queue order) to `username`
     * and returns its id; undefined when none is left. The UPDATE only takes a row still
     * unassigned, so two callers never get the same entity: on PostgreSQL the loser waits for the
     * winner's row lock, finds it taken and looks again; SQLite has one writer at a time.
     */
    async takeNext(
      range: ReviewDateRange,
      filter: ReviewQueueFilter,
      username: string,
    ): Promise<string | undefined> {
      for (;;) {
        const candidate = await db
          .selectFrom('entities')
          .select('entities.id')
          .where((eb) => inQueue(eb, range, { ...filter, assignee: null }))
          .$if(range.undated !== true, (query) => query.orderBy('entities.next_kyc_review'))
          .orderBy('entities.id')
          .limit(1)
          .executeTakeFirst();
        if (!candidate) return undefined;
        const taken = await db
          .updateTable('entities')
          .set({ assignee: username })
          .where('id', '=', candidate.id)
          .where('assignee', 'is', null)
          .executeTakeFirst();
        if (taken.numUpdatedRows > 0n) return candidate.id;
      }
    },

    /** One queue row by id (the entity just taken). */
    async row(id: string): Promise<ReviewQueueRow | undefined> {
      return queueRows(db).where('entities.id', '=', id).executeTakeFirst();
    },

    /** The counts query alone, exported for the query-plan tests. */
    countsQuery(
      windows: Record<keyof ReviewWindowCounts, ReviewDateRange>,
      filter: ReviewQueueFilter,
    ) {
      // A plain count(*) per window is a range count on an index; one walk with a CASE per row
      // was seven times slower on SQLite.
      const countOf = (range: ReviewDateRange) =>
        db
          .selectFrom('entities')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where((eb) => inQueue(eb, range, filter));
      return db.selectNoFrom([
        countOf(windows.overdue).as('overdue'),
        countOf(windows.due7).as('due7'),
        countOf(windows.due30).as('due30'),
        countOf(windows.undated).as('undated'),
        countOf(windows.all).as('all'),
      ]);
    },

    /**
     * Entities of the filters with a client response waiting; not kept, as responses are no entity
     * data, so prepared: every queue page runs it, and its plan starts from the few responses.
     */
    async respondedCount(filter: ReviewQueueFilter): Promise<number> {
      const row = await takeFirstPrepared(
        db,
        db
          .selectFrom('entities')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where((eb) => inQueue(eb, { responded: true }, filter)),
      );
      return Number(row?.count ?? 0);
    },

    /** Entities of the filters in each window. */
    async counts(
      windows: Record<keyof ReviewWindowCounts, ReviewDateRange>,
      filter: ReviewQueueFilter,
    ): Promise<ReviewWindowCounts> {
      const row = await this.countsQuery(windows, filter).executeTakeFirst();
      // PostgreSQL's count() is a bigint, which pg returns as a string.
      return {
        overdue: Number(row?.overdue ?? 0),
        due7: Number(row?.due7 ?? 0),
        due30: Number(row?.due30 ?? 0),
        undated: Number(row?.undated ?? 0),
        all: Number(row?.all ?? 0),
      };
    },
  };
}
