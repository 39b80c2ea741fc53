import {
  type ExpressionBuilder,
  type Expression,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
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

/**
 * `like` escapes nothing portably here: a prefix is a range instead, which an index reads;
 * written `+name_order` when the page walks the sort's order instead.
 */
function prefixRange(eb: Entities, prefix: string, indexed = true): Expression<SqlBool> {
  const column = indexed ? sql.ref('entities.name_order') : sql`+entities.name_order`;
  return eb.and([eb(column, '>=', prefix), eb(column, '<', `${prefix}\u{10FFFF}`)]);
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

/** The filter whose index leads a page on SQLite, and how many entities it matches (all: none). */
export interface EntityIndexLead {
  filter?: EntityIndexFilterName;
  matching: number;
}

/**
 * How SQLite reads a page: from the lead's index, either the name range, read and then sorted
 * (`name`), or the sort's order, walked with the name checked on each row (`order`).
 */
export interface EntityIndexPlan {
  lead?: EntityIndexFilterName;
  drive: 'name' | 'order';
}

/** Which filters an index may seek: all (the planner's choice), or, given a lead, its own. */
type Seeks = (name: EntityIndexFilterName) => boolean;
const everyFilterSeeks: Seeks = () => true;
const noFilterSeeks: Seeks = () => false;

/** Given a lead, it seeks; so does a status under the status sort, one point of its order. */
function seeksOf(lead: EntityIndexFilterName | undefined, sort?: EntityIndexSort): Seeks {
  if (lead === undefined) return everyFilterSeeks;
  return (name) => name === lead || (name === 'kycStatus' && sort === 'status');
}

/** The filters other than the name or ID; one no index may seek is written `+column`. */
function filtersOf(
  eb: Entities,
  criteria: EntityIndexCriteria,
  seeks: Seeks = everyFilterSeeks,
): Expression<SqlBool>[] {
  return FILTER_NAMES.flatMap((name) => {
    const value = criteria[name];
    if (value === undefined) return [];
    const column = sql.ref(`entities.${FILTER_COLUMNS[name]}`);
    const operand = seeks(name) ? column : sql`+${column}`;
    return [value === null ? eb(operand, 'is', null) : eb(operand, '=', value)];
  });
}

/** A name start under the filters: its range read by index, or tested on each row walked. */
function namesMatching(
  eb: Entities,
  criteria: EntityIndexCriteria,
  namePrefix: string,
  seeks: Seeks,
  indexed = true,
): Expression<SqlBool>[] {
  return [...filtersOf(eb, criteria, seeks), prefixRange(eb, namePrefix, indexed)];
}

/** The entities an ID or external ID names, as typed: two lookups of their own. */
function exactIdsQuery(eb: Entities, exact: NonNullable<EntityIndexCriteria['exact']>) {
  return eb
    .selectFrom('entities as by_id')
    .select('by_id.id')
    .where('by_id.id', '=', exact.id)
    .unionAll(
      eb
        .selectFrom('entities as by_external_id')
        .select('by_external_id.id')
        .where('by_external_id.external_id_folded', '=', exact.externalIdFolded),
    );
}

function exactIds(eb: Entities, exact: NonNullable<EntityIndexCriteria['exact']>) {
  return eb('entities.id', 'in', exactIdsQuery(eb, exact));
}

function matches(eb: Entities, criteria: EntityIndexCriteria): Expression<SqlBool> {
  const text = [
    ...(criteria.namePrefix === undefined ? [] : [prefixRange(eb, criteria.namePrefix)]),
    ...(criteria.exact === undefined ? [] : [exactIds(eb, criteria.exact)]),
  ];
  return eb.and([...filtersOf(eb, criteria), ...(text.length === 0 ? [] : [eb.or(text)])]);
}

/** After a position in the order (none: from the start), by the key as the page orders by it. */
function keysetAfter(
  ordered: RawBuilder<string>,
  order: EntityIndexOrder,
  after: EntityIndexKey | undefined,
): RawBuilder<SqlBool>[] {
  if (after === undefined) return [];
  return [
    order === 'asc'
      ? sql<SqlBool>`(${ordered}, entities.id) > (${after.value}, ${after.id})`
      : sql<SqlBool>`(${ordered}, entities.id) < (${after.value}, ${after.id})`,
  ];
}

/** A filter's value as 0036's groups hold it: '' stands for a null country or assignee. */
function groupValue(value: string | null): string {
  return value ?? '';
}

/** The filters against 0036's groups. */
function groupMatches(
  eb: ExpressionBuilder<{ groups: EntityIndexCountTable }, 'groups'>,
  criteria: EntityIndexCriteria,
): Expression<SqlBool> {
  return eb.and(
    FILTER_NAMES.flatMap((name) => {
      const value = criteria[name];
      return value === undefined ? [] : [eb(FILTER_COLUMNS[name], '=', groupValue(value))];
    }),
  );
}

const GROUP_COLUMNS = ['kind', 'kyc_status', 'risk_level', 'country', 'assignee', 'n'] as const;

export type EntityIndexCountGroup = Pick<EntityIndexCountTable, (typeof GROUP_COLUMNS)[number]>;

/** The entities a filter matches, summed over the groups. */
function matchingIn(
  groups: readonly EntityIndexCountGroup[],
  name: EntityIndexFilterName,
  value: string | null,
): number {
  const column = FILTER_COLUMNS[name];
  return groups.reduce(
    (sum, group) => (group[column] === groupValue(value) ? sum + Number(group.n) : sum),
    0,
  );
}

/**
 * A row read, against an entry of a name range read from the index, fitted over the bench's name
 * starts at 1,000,000 (flat from 6 to 16: docs/entity-index.md).
 */
export const NAME_ENTRIES_PER_ROW = 8;

export function entityIndexRepository(db: Db) {
  return {
    /** The page query alone, exported for the query-plan tests. */
    pageQuery(
      criteria: EntityIndexCriteria,
      sort: EntityIndexSort,
      order: EntityIndexOrder,
      after: EntityIndexKey | undefined,
      limit: number,
      plan?: EntityIndexPlan,
    ) {
      const key = sortKey(sort);
      // `+key` no index serves: a name range read whole is then sorted, not walked against the order.
      const ordered = plan?.drive === 'name' && sort !== 'name' ? sql<string>`+${key}` : key;
      const { namePrefix, exact } = criteria;
      const rows = db
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
        ]);
      if (plan === undefined || namePrefix === undefined) {
        return rows
          .where((eb) =>
            eb.and([
              plan === undefined
                ? matches(eb, criteria)
                : eb.and(filtersOf(eb, criteria, seeksOf(plan.lead, sort))),
              ...keysetAfter(ordered, order, after),
            ]),
          )
          .orderBy(ordered, order)
          .orderBy('entities.id', order)
          .limit(limit);
      }
      // The names as planned, the page's worth, beside the exact IDs: under one OR, SQLite reads
      // and sorts the whole name range even where the lead's name index holds it in order.
      const named = db
        .selectFrom('entities')
        .select('entities.id')
        .where((eb) =>
          eb.and([
            ...namesMatching(
              eb,
              criteria,
              namePrefix,
              seeksOf(plan.lead, sort),
              plan.drive === 'name',
            ),
            ...keysetAfter(ordered, order, after),
          ]),
        )
        .orderBy(ordered, order)
        .orderBy('entities.id', order)
        .limit(limit);
      const few = sql<string>`+${key}`;
      return rows
        .where((eb) => {
          const namedIds = eb.selectFrom(named.as('named')).select('named.id');
          return eb.and([
            eb(
              'entities.id',
              'in',
              exact === undefined ? namedIds : namedIds.unionAll(exactIdsQuery(eb, exact)),
            ),
            ...filtersOf(eb, criteria, noFilterSeeks),
            ...keysetAfter(few, order, after),
          ]);
        })
        .orderBy(few, order)
        .orderBy('entities.id', order)
        .limit(limit);
    },

    async page(
      criteria: EntityIndexCriteria,
      sort: EntityIndexSort,
      order: EntityIndexOrder,
      after: EntityIndexKey | undefined,
      limit: number,
      lead: EntityIndexLead | undefined,
    ): Promise<EntityIndexDbRow[]> {
      const plan = await this.planOf(criteria, sort, limit, lead);
      return (await this.pageQuery(
        criteria,
        sort,
        order,
        after,
        limit,
        plan,
      ).execute()) as EntityIndexDbRow[];
    },

    /** 0036's groups, a few thousand whatever the data. */
    countGroups(): Promise<EntityIndexCountGroup[]> {
      return db.selectFrom('entity_index_counts').select(GROUP_COLUMNS).execute();
    },

    /**
     * On SQLite, the filter matching the fewest entities (0036's exact counts), for a page of two
     * filters or more, or of one with a name start: reading its index passes at most that many
     * rows, and 0039's indexes test the other filters without reading the rows. SQLite's planner
     * judges by averages (0038) and would sort a two-filter range or walk a common value's index
     * instead (122 ms at 1,500,000); PostgreSQL's by its own. `groups` is read only when needed.
     */
    async leadOf(
      criteria: EntityIndexCriteria,
      groups: () => Promise<readonly EntityIndexCountGroup[]>,
    ): Promise<EntityIndexLead | undefined> {
      if (engineOf(db) !== 'sqlite') return undefined;
      const present = FILTER_NAMES.filter((name) => criteria[name] !== undefined);
      if (present.length < (criteria.namePrefix === undefined ? 2 : 0)) return undefined;
      const counted = await groups();
      const rarest = present
        .map((name) => ({
          filter: name,
          matching: matchingIn(counted, name, criteria[name] ?? null),
        }))
        .reduce<EntityIndexLead | undefined>(
          (best, lead) => (best === undefined || lead.matching < best.matching ? lead : best),
          undefined,
        );
      return rarest ?? { matching: counted.reduce((sum, group) => sum + Number(group.n), 0) };
    },

    /**
     * How SQLite reads a page (undefined: as its planner likes, and always on PostgreSQL). With a
     * name start and another sort, a range of M names is read from its index alone (0040) and
     * sorted, while walking the order reads about limit × (what the lead matches) / M rows, each
     * costing about as much as `NAME_ENTRIES_PER_ROW` names: the cheaper is read, the range counted
     * no further than where the two meet.
     */
    async planOf(
      criteria: EntityIndexCriteria,
      sort: EntityIndexSort,
      limit: number,
      lead: EntityIndexLead | undefined,
    ): Promise<EntityIndexPlan | undefined> {
      if (lead === undefined) return undefined;
      if (criteria.namePrefix === undefined || sort === 'name') {
        return { lead: lead.filter, drive: criteria.namePrefix === undefined ? 'order' : 'name' };
      }
      const meet = Math.ceil(Math.sqrt(NAME_ENTRIES_PER_ROW * limit * lead.matching));
      const { namePrefix } = criteria;
      const { named } = await db
        .selectFrom(
          db
            .selectFrom('entities')
            .select('entities.id')
            .where((eb) => eb.and(namesMatching(eb, criteria, namePrefix, seeksOf(lead.filter))))
            .limit(meet)
            .as('range'),
        )
        .select((eb) => eb.fn.countAll<number>().as('named'))
        .executeTakeFirstOrThrow();
      return { lead: lead.filter, drive: named < meet ? 'name' : 'order' };
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
    async total(criteria: EntityIndexCriteria, lead: EntityIndexLead | undefined): Promise<number> {
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
      const seeks = seeksOf(lead?.filter);
      const count = (where: (eb: Entities) => Expression<SqlBool>[]) =>
        db
          .selectFrom('entities')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where((eb) => eb.and([...filtersOf(eb, criteria, seeks), ...where(eb)]));
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
