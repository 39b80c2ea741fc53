import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { EntityIndexOrder, EntityIndexSort } from '../../contract/entity-index.ts';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import type { Database, EntityIndexCountTable } from '../db/schema.ts';

/** Where undated entities sort: after every date ascending (0029's index expression). */
const UNDATED_LAST = '9999-12-31';

/** What the index filters by, as the columns hold it. */
export interface EntityIndexCriteria {
  kind?: 'legal' | 'person';
  kycStatus?: string;
  riskLevel?: string;
  country?: string;
  /** A username, or null for the unassigned entities; absent: everyone's. */
  assignee?: string | null;
  /** The folded start of a name; `exact` an entity ID or external ID as typed (and folded). */
  namePrefix?: string;
  exact?: { id: string; externalIdFolded: string };
}

/** A position in an order: after this sort value and id. */
export interface EntityIndexKey {
  value: string;
  id: string;
}

export interface EntityIndexDbRow {
  id: string;
  kind: 'legal' | 'person';
  created_at: string;
  kyc_status: string;
  risk_level: string;
  country: string | null;
  next_kyc_review: string | null;
  assignee: string | null;
  name_order: string;
  sort_value: string;
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  documents: number | string | bigint;
}

type Entities = ExpressionBuilder<Database, 'entities'>;

/** The sort key exactly as 0029 indexes it (the planner matches the expression's text). */
function sortKey(sort: EntityIndexSort) {
  switch (sort) {
    case 'name':
      return sql<string>`entities.name_order`;
    case 'created':
      return sql<string>`entities.created_at`;
    case 'nextReview':
      return sql<string>`coalesce(entities.next_kyc_review, ${sql.lit(UNDATED_LAST)})`;
    case 'status':
      return sql<string>`entities.kyc_status`;
  }
}

/** `like` escapes nothing portably here: a prefix is a range instead, which an index reads. */
function prefixRange(eb: Entities, prefix: string): Expression<SqlBool> {
  return eb.and([
    eb('entities.name_order', '>=', prefix),
    eb('entities.name_order', '<', `${prefix}\u{10FFFF}`),
  ]);
}

/** The filters other than the name or ID, each with its column. */
export const FILTER_COLUMNS = {
  kind: 'kind',
  kycStatus: 'kyc_status',
  riskLevel: 'risk_level',
  country: 'country',
  assignee: 'assignee',
} as const;
export type EntityIndexFilterName = keyof typeof FILTER_COLUMNS;
const FILTER_NAMES = Object.keys(FILTER_COLUMNS) as EntityIndexFilterName[];

/**
 * The filters other than the name or ID. Given a lead (SQLite's only), the others are written
 * `+column`, which no index serves, so that the page walks the lead's index in the sort's order.
 */
function filtersOf(
  eb: Entities,
  criteria: EntityIndexCriteria,
  lead?: EntityIndexFilterName,
): Expression<SqlBool>[] {
  return FILTER_NAMES.flatMap((name) => {
    const value = criteria[name];
    if (value === undefined) return [];
    const column = sql.ref(`entities.${FILTER_COLUMNS[name]}`);
    const operand = lead === undefined || lead === name ? column : sql`+${column}`;
    return [value === null ? eb(operand, 'is', null) : eb(operand, '=', value)];
  });
}

/** An entity ID or external ID, as typed: its own two lookups, whatever else the query filters by. */
function exactIds(eb: Entities, exact: NonNullable<EntityIndexCriteria['exact']>) {
  return eb(
    'entities.id',
    'in',
    eb
      .selectFrom('entities as by_id')
      .select('by_id.id')
      .where('by_id.id', '=', exact.id)
      .unionAll(
        eb
          .selectFrom('entities as by_external_id')
          .select('by_external_id.id')
          .where('by_external_id.external_id_folded', '=', exact.externalIdFolded),
      ),
  );
}

function matches(
  eb: Entities,
  criteria: EntityIndexCriteria,
  lead?: EntityIndexFilterName,
): Expression<SqlBool> {
  const text = [
    ...(criteria.namePrefix === undefined ? [] : [prefixRange(eb, criteria.namePrefix)]),
    ...(criteria.exact === undefined ? [] : [exactIds(eb, criteria.exact)]),
  ];
  return eb.and([...filtersOf(eb, criteria, lead), ...(text.length === 0 ? [] : [eb.or(text)])]);
}

/** The filters against 0036's groups, where '' stands for a null country or assignee. */
function groupMatches(
  eb: ExpressionBuilder<{ groups: EntityIndexCountTable }, 'groups'>,
  criteria: EntityIndexCriteria,
): Expression<SqlBool> {
  return eb.and(
    FILTER_NAMES.flatMap((name) => {
      const value = criteria[name];
      return value === undefined ? [] : [eb(FILTER_COLUMNS[name], '=', value ?? '')];
    }),
  );
}

const GROUP_COLUMNS = ['kind', 'kyc_status', 'risk_level', 'country', 'assignee', 'n'] as const;

export function entityIndexRepository(db: Db) {
  return {
    /** The page query alone, exported for the query-plan tests. */
    pageQuery(
      criteria: EntityIndexCriteria,
      sort: EntityIndexSort,
      order: EntityIndexOrder,
      after: EntityIndexKey | undefined,
      limit: number,
      lead?: EntityIndexFilterName,
    ) {
      const key = sortKey(sort);
      return db
        .selectFrom('entities')
        .leftJoin('legal_entities', 'legal_entities.entity_id', 'entities.id')
        .leftJoin('natural_persons', 'natural_persons.entity_id', 'entities.id')
        .select((eb) => [
          'entities.id',
          'entities.kind',
          'entities.created_at',
          'entities.kyc_status',
          'entities.risk_level',
          'entities.country',
          'entities.next_kyc_review',
          'entities.assignee',
          'entities.name_order',
          key.as('sort_value'),
          'legal_entities.company_name',
          'natural_persons.first_name',
          'natural_persons.middle_name',
          'natural_persons.last_name',
          eb
            .selectFrom('documents')
            .select((count) => count.fn.countAll().as('n'))
            .whereRef('documents.entity_id', '=', 'entities.id')
            .as('documents'),
        ])
        .where((eb) => matches(eb, criteria, lead))
        .$if(after !== undefined, (query) =>
          query.where(
            order === 'asc'
              ? sql<SqlBool>`(${key}, entities.id) > (${after?.value ?? ''}, ${after?.id ?? ''})`
              : sql<SqlBool>`(${key}, entities.id) < (${after?.value ?? ''}, ${after?.id ?? ''})`,
          ),
        )
        .orderBy(key, order)
        .orderBy('entities.id', order)
        .limit(limit);
    },

    async page(
      criteria: EntityIndexCriteria,
      sort: EntityIndexSort,
      order: EntityIndexOrder,
      after: EntityIndexKey | undefined,
      limit: number,
    ): Promise<EntityIndexDbRow[]> {
      const lead = await this.leadOf(criteria);
      return (await this.pageQuery(
        criteria,
        sort,
        order,
        after,
        limit,
        lead,
      ).execute()) as EntityIndexDbRow[];
    },

    /**
     * On SQLite, the filter matching the fewest entities (0036's exact counts), for a page of two
     * filters or more without a name: walking its (filter, sort key, id) index in order passes at
     * most that many rows. SQLite's planner judges by averages (0038) and would sort a two-filter
     * range or walk a common value's index instead (122 ms at 1,500,000); PostgreSQL's by its own.
     */
    async leadOf(criteria: EntityIndexCriteria): Promise<EntityIndexFilterName | undefined> {
      const present = FILTER_NAMES.filter((name) => criteria[name] !== undefined);
      if (engineOf(db) !== 'sqlite' || present.length < 2) return undefined;
      if (criteria.namePrefix !== undefined || criteria.exact !== undefined) return undefined;
      const row = (await db
        .selectFrom('entity_index_counts as groups')
        .select((eb) =>
          present.map((name) =>
            eb.fn
              .sum<number | null>(
                eb
                  .case()
                  .when(groupMatches(eb, { [name]: criteria[name] }))
                  .then(eb.ref('n'))
                  .else(0)
                  .end(),
              )
              .as(name),
          ),
        )
        .executeTakeFirst()) as Partial<Record<EntityIndexFilterName, number | null>> | undefined;
      const matching = (name: EntityIndexFilterName) => row?.[name] ?? 0;
      return present.reduce((rarest, name) => (matching(name) < matching(rarest) ? name : rarest));
    },

    /**
     * PostgreSQL's triggers append count changes (0036); folding them into the counts keeps the
     * sum short. Two folds at once delete disjoint rows, and lock groups in one order.
     */
    async foldCountDeltas(): Promise<void> {
      if (engineOf(db) !== 'postgres') return;
      await sql`with gone as (delete from entity_index_count_deltas returning kind, kyc_status, risk_level, country, assignee, n)
        insert into entity_index_counts (kind, kyc_status, risk_level, country, assignee, n)
        select kind, kyc_status, risk_level, country, assignee, sum(n) from gone
        group by kind, kyc_status, risk_level, country, assignee
        order by kind, kyc_status, risk_level, country, assignee
        on conflict (kind, kyc_status, risk_level, country, assignee)
        do update set n = entity_index_counts.n + excluded.n`.execute(db);
    },

    /**
     * Without a name or ID, a total is a sum over 0036's per-group counts (a few thousand rows
     * whatever the data); with one, a count of the matching name range and exact IDs.
     */
    async total(criteria: EntityIndexCriteria): Promise<number> {
      if (criteria.namePrefix === undefined && criteria.exact === undefined) {
        await this.foldCountDeltas();
        const groups = db
          .selectFrom('entity_index_counts')
          .select(GROUP_COLUMNS)
          .unionAll(db.selectFrom('entity_index_count_deltas').select(GROUP_COLUMNS));
        // One statement, so a fold committing meanwhile is seen whole or not at all.
        const row = await db
          .selectFrom(groups.as('groups'))
          .select((eb) => eb.fn.sum<number | string | null>('n').as('total'))
          .where((eb) => groupMatches(eb, criteria))
          .executeTakeFirstOrThrow();
        return Number(row.total ?? 0);
      }
      // The name range and the exact IDs counted apart: under one OR neither reads its own index,
      // and a filter's index is walked whole instead (489 ms for a 4-letter name at 100,000).
      const { namePrefix, exact } = criteria;
      const count = (where: (eb: Entities) => Expression<SqlBool>[]) =>
        db
          .selectFrom('entities')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where((eb) => eb.and([...filtersOf(eb, criteria), ...where(eb)]));
      const row = await db
        .selectNoFrom([
          count((eb) =>
            namePrefix === undefined ? [eb.lit(false)] : [prefixRange(eb, namePrefix)],
          ).as('named'),
          count((eb) =>
            exact === undefined
              ? [eb.lit(false)]
              : [
                  exactIds(eb, exact),
                  ...(namePrefix === undefined ? [] : [eb.not(prefixRange(eb, namePrefix))]),
                ],
          ).as('exact'),
        ])
        .executeTakeFirstOrThrow();
      return Number(row.named) + Number(row.exact);
    },
  };
}
