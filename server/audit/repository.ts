import { CompiledQuery, sql, type Kysely } from 'kysely';
import { READ_VERBS, type AuditFilter, type EntityAuditKind } from '../../contract/audit.ts';
import type { AuditEventTable, Database } from '../db/schema.ts';
import { engineOf, isUniqueViolation, type Engine } from '../db/engine.ts';
import { WRITE_LOCK_KEY } from '../db/postgres.ts';
import { firstRowOf, prepared } from '../db/prepared-statements.ts';
import { GENESIS_HASH } from './chain.ts';

export type AuditEventRow = AuditEventTable;

/** Where the chain continues from: the newest event, else the anchor, else the genesis. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** Filters of a page; `beforeSeq` is the keyset cursor (newest first). */
export interface AuditPageQuery extends AuditFilter {
  entityIdExact?: string;
  /** `views`: only reads (`*.view`, `*.list` …, see READ_VERBS); `changes`: everything else. */
  kind?: EntityAuditKind;
  beforeSeq?: number;
  limit: number;
}

/** Every column of an event, in the order the kept INSERT statements bind them. */
const EVENT_COLUMNS = [
  'seq',
  'id',
  'at',
  'actor',
  'action',
  'entity_id',
  'document_id',
  'outcome',
  'request_id',
  'client_address',
  'detail',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof AuditEventRow)[];

/**
 * The SQL of the appends per engine, built once: building and compiling it for every append cost
 * about 25 µs of CPU a batch of three, a quarter of a gateway read's event.
 */
const appendSql = new Map<
  Engine,
  { head: CompiledQuery; insertOf: Map<number, string>; appendAfterOf: Map<number, string> }
>();

/** Batches up to this many events keep their INSERT; recordMany's larger ones build theirs. */
const KEPT_INSERT_ROWS = 64;

function appendSqlOf(db: Kysely<Database>) {
  const engine = engineOf(db);
  let kept = appendSql.get(engine);
  if (!kept) {
    const head = prepared(
      db
        .selectFrom('audit_events')
        .select(['seq', 'hash'])
        .orderBy('seq', 'desc')
        .limit(1)
        .compile(),
    );
    kept = { head, insertOf: new Map(), appendAfterOf: new Map() };
    appendSql.set(engine, kept);
  }
  return kept;
}

/** The INSERT of `count` events, its parameters bound row by row in EVENT_COLUMNS order. */
function insertSqlOf(db: Kysely<Database>, count: number): string {
  const { insertOf } = appendSqlOf(db);
  let text = insertOf.get(count);
  if (text === undefined) {
    const placeholderRow = Object.fromEntries(
      EVENT_COLUMNS.map((column) => [column, null]),
    ) as unknown as AuditEventRow;
    const insert = db
      .insertInto('audit_events')
      .values(Array.from({ length: count }, () => placeholderRow))
      .compile();
    if (count > KEPT_INSERT_ROWS) return insert.sql;
    text = prepared(insert).sql;
    insertOf.set(count, text);
  }
  return text;
}

/**
 * One statement that appends `count` events only if the event they continue is still there with
 * its hash (parameters: the rows', then that event's seq and hash); the primary key refuses them
 * when another writer appended first. On PostgreSQL it takes the write lock every transaction
 * takes, so it never slips between a transaction's read of the head and its insert.
 */
function appendAfterSqlOf(db: Kysely<Database>, count: number): string {
  const engine = engineOf(db);
  const { appendAfterOf } = appendSqlOf(db);
  const kept = appendAfterOf.get(count);
  if (kept !== undefined) return kept;
  // Only seq needs its type: PostgreSQL takes the other parameters of a VALUES list as text.
  const row = sql`(${sql.join(
    EVENT_COLUMNS.map((column) => (column === 'seq' ? sql`cast(${null} as bigint)` : sql`${null}`)),
  )})`;
  const writeLock =
    engine === 'postgres'
      ? sql` cross join (select pg_advisory_xact_lock(${sql.lit(WRITE_LOCK_KEY)})) as write_lock`
      : sql``;
  const append =
    sql`insert into audit_events (${sql.join(EVENT_COLUMNS.map((column) => sql.ref(column)))})
    select events.* from (values ${sql.join(Array.from({ length: count }, () => row))}) as events${writeLock}
    where exists (select 1 from audit_events where seq = ${null} and hash = ${null})`.compile(db);
  if (count > KEPT_INSERT_ROWS) return append.sql;
  appendAfterOf.set(count, prepared(append).sql);
  return append.sql;
}

/** The only place with SQL for the audit trail. */
export function auditRepository(db: Kysely<Database>) {
  return {
    async head(): Promise<ChainHead> {
      const { head } = appendSqlOf(db);
      const last = await firstRowOf<ChainHead>(
        db,
        CompiledQuery.raw(head.sql, [...head.parameters]),
      );
      if (last) return last;
      return (await this.anchor()) ?? { seq: 0, hash: GENESIS_HASH };
    },

    async anchor(): Promise<ChainHead | undefined> {
      const anchor = await db
        .selectFrom('audit_anchor')
        .select(['through_seq', 'hash'])
        .where('id', '=', 1)
        .executeTakeFirst();
      return anchor ? { seq: anchor.through_seq, hash: anchor.hash } : undefined;
    },

    async insert(rows: readonly AuditEventRow[]): Promise<void> {
      if (rows.length === 0) return;
      const parameters = rows.flatMap((row) => EVENT_COLUMNS.map((column) => row[column]));
      await db.executeQuery(CompiledQuery.raw(insertSqlOf(db, rows.length), parameters));
    },

    /**
     * Appends `rows`, which continue the event `after`, in one statement; false, with nothing
     * written, when another writer appended first or `after` is not a stored event (an anchor, the genesis).
     */
    async appendAfter(after: ChainHead, rows: readonly AuditEventRow[]): Promise<boolean> {
      if (rows.length === 0) return true;
      const parameters = [
        ...rows.flatMap((row) => EVENT_COLUMNS.map((column) => row[column])),
        after.seq,
        after.hash,
      ];
      try {
        const result = await db.executeQuery(
          CompiledQuery.raw(appendAfterSqlOf(db, rows.length), parameters),
        );
        return Number(result.numAffectedRows ?? 0) === rows.length;
      } catch (error) {
        // Another writer took the next seq after this statement looked (PostgreSQL reads before it locks).
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Newest first, filtered; `limit` rows at most. */
    page(query: AuditPageQuery): Promise<AuditEventRow[]> {
      return this.pageQuery(query).execute();
    },

    pageQuery(query: AuditPageQuery) {
      let select = db.selectFrom('audit_events').selectAll();
      if (query.actor !== undefined) select = select.where('actor', '=', query.actor);
      if (query.action !== undefined) select = select.where('action', '=', query.action);
      const entityId = query.entityIdExact ?? query.entityId;
      if (entityId !== undefined) select = select.where('entity_id', '=', entityId);
      if (query.from !== undefined) select = select.where('at', '>=', query.from);
      // `to` is a whole day: everything before the next day's first instant.
      if (query.to !== undefined) select = select.where('at', '<', `${query.to}T24`);
      if (query.kind === 'views' || query.kind === 'changes') {
        const kind = query.kind;
        select = select.where((eb) => {
          const isRead = eb.or(READ_VERBS.map((verb) => eb('action', 'like', `%.${verb}`)));
          return kind === 'views' ? isRead : eb.not(isRead);
        });
      }
      if (query.beforeSeq !== undefined) select = select.where('seq', '<', query.beforeSeq);
      return select.orderBy('seq', 'desc').limit(query.limit);
    },

    /** Display names of the entities among `ids` this database holds (a company's name, a person's full name). */
    async entityNames(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const [companies, people] = await Promise.all([
        db
          .selectFrom('legal_entities')
          .select(['entity_id', 'company_name'])
          .where('entity_id', 'in', ids)
          .execute(),
        db
          .selectFrom('natural_persons')
          .select(['entity_id', 'first_name', 'middle_name', 'last_name'])
          .where('entity_id', 'in', ids)
          .execute(),
      ]);
      const names = new Map<string, string>();
      for (const row of companies) names.set(row.entity_id, row.company_name);
      for (const row of people) {
        const name = [row.first_name, row.middle_name, row.last_name]
          .filter((part) => part?.trim())
          .join(' ');
        names.set(row.entity_id, name);
      }
      return names;
    },

    /** Oldest first from `afterSeq`, for verification. */
    chainFrom(afterSeq: number, limit: number): Promise<AuditEventRow[]> {
      return db
        .selectFrom('audit_events')
        .selectAll()
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },

    /**
     * The newest event older than `cutoff` (ISO instant), the last one retention may delete. Found
     * in the (at, seq) index: ordered by seq, every older event was sorted first (0.2 s at 390,000,
     * on every start).
     */
    lastBefore(cutoff: string): Promise<{ seq: number; hash: string } | undefined> {
      return db
        .selectFrom('audit_events')
        .select(['seq', 'hash'])
        .where('at', '<', cutoff)
        .orderBy('at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async setAnchor(through: ChainHead, prunedAt: string, prunedCount: number): Promise<void> {
      await db
        .insertInto('audit_anchor')
        .values({
          id: 1,
          through_seq: through.seq,
          hash: through.hash,
          pruned_at: prunedAt,
          pruned_count: prunedCount,
        })
        .onConflict((conflict) =>
          conflict.column('id').doUpdateSet({
            through_seq: through.seq,
            hash: through.hash,
            pruned_at: prunedAt,
            pruned_count: sql`audit_anchor.pruned_count + ${prunedCount}`,
          }),
        )
        .execute();
    },

    async deleteThrough(seq: number): Promise<number> {
      const result = await db.deleteFrom('audit_events').where('seq', '<=', seq).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
