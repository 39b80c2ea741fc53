import type {
  EntityIndexFilter,
  EntityIndexPage,
  EntityIndexQuery,
  EntityIndexRow,
  EntityIndexSort,
} from '../../contract/entity-index.ts';
import { foldForSearch } from '../../contract/search-text.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { createPageCache, createVersionedCache } from '../db/versioned-cache.ts';
import { csvLine } from '../http/csv.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import {
  entityIndexRepository,
  type EntityIndexCountGroup,
  type EntityIndexCriteria,
  type EntityIndexDbRow,
  type EntityIndexKey,
  type EntityIndexLead,
} from './repository.ts';

/** Filter combinations whose totals are kept; past this the least recently used go first. */
const MAX_KEPT_TOTALS = 500;
/** Rows the CSV export reads at a time: memory stays flat whatever the total. */
const CSV_ROWS_PER_READ = 1000;

export const ENTITY_INDEX_CSV_COLUMNS = [
  'entityId',
  'type',
  'name',
  'country',
  'kycStatus',
  'riskLevel',
  'nextKYCReview',
  'assignee',
  'documents',
  'createdAt',
] as const;

/** The filters as the repository reads them: `me` is the caller, `none` nobody, q folded. */
export function criteriaOf(filter: EntityIndexFilter, caller: string): EntityIndexCriteria {
  const assignee = filter.assignee === 'me' ? caller : filter.assignee;
  return {
    ...(filter.type === 'legal-entities' ? { kind: 'legal' as const } : {}),
    ...(filter.type === 'natural-persons' ? { kind: 'person' as const } : {}),
    ...(filter.kycStatus === undefined ? {} : { kycStatus: filter.kycStatus }),
    ...(filter.riskLevel === undefined ? {} : { riskLevel: filter.riskLevel }),
    ...(filter.country === undefined ? {} : { country: filter.country }),
    ...(assignee === undefined ? {} : { assignee: assignee === 'none' ? null : assignee }),
    ...(filter.q === undefined
      ? {}
      : {
          namePrefix: foldForSearch(filter.q),
          exact: { id: filter.q, externalIdFolded: foldForSearch(filter.q) },
        }),
  };
}

function rowOf(row: EntityIndexDbRow): EntityIndexRow {
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
    nextKYCReview: row.next_kyc_review,
    assignee: row.assignee,
    documents: Number(row.documents),
    createdAt: row.created_at,
  };
}

/** A cursor names the sort it was made for, so one from another order is refused, not misread. */
function cursorOf(sort: EntityIndexSort, row: EntityIndexDbRow): string {
  return encodeCursor([sort, row.sort_value, row.id]);
}

function keyOfCursor(sort: EntityIndexSort, cursor: string): EntityIndexKey {
  return decodeCursor(cursor, ([cursorSort, value, id, ...rest]) =>
    cursorSort === sort &&
    typeof value === 'string' &&
    value.length <= 1000 &&
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 100 &&
    rest.length === 0
      ? { value, id }
      : undefined,
  );
}

/**
 * What the entity index keeps until the entity data changes: 0036's groups, from which each
 * request's lead is chosen once, the totals per filter (a total grows with the entities
 * matched), and the pages asked for again (the console's first page, most of all).
 */
export function createEntityIndexKept(db: Db) {
  const repository = entityIndexRepository(db);
  const groups = createVersionedCache<EntityIndexCountGroup[]>(db, { entries: 1 });
  const totals = createVersionedCache<number>(db, { entries: MAX_KEPT_TOTALS });
  // versionAtStart: the entity data's version read as the request began (createVersionedCache).
  return {
    pages: createPageCache<EntityIndexPage>(db),
    lead: (criteria: EntityIndexCriteria, versionAtStart?: string) =>
      repository.leadOf(criteria, () =>
        groups.get('groups', () => repository.countGroups(), versionAtStart),
      ),
    total: (
      criteria: EntityIndexCriteria,
      lead: EntityIndexLead | undefined,
      versionAtStart?: string,
    ) =>
      totals.get(JSON.stringify(criteria), () => repository.total(criteria, lead), versionAtStart),
  };
}
export type EntityIndexKept = ReturnType<typeof createEntityIndexKept>;

export async function entityIndexPage(
  db: Db,
  kept: EntityIndexKept,
  query: EntityIndexQuery,
  caller: Pick<Caller, 'username' | 'entityDataVersion'>,
): Promise<EntityIndexPage> {
  const criteria = criteriaOf(query, caller.username);
  const after = query.cursor === undefined ? undefined : keyOfCursor(query.sort, query.cursor);
  const key = JSON.stringify([criteria, query.sort, query.order, query.cursor, query.limit]);
  return kept.pages.get(
    key,
    async () => {
      const lead = await kept.lead(criteria, caller.entityDataVersion);
      // One row more than asked tells whether a next page exists.
      const [rows, total] = await Promise.all([
        entityIndexRepository(db).page(
          criteria,
          query.sort,
          query.order,
          after,
          query.limit + 1,
          lead,
        ),
        kept.total(criteria, lead, caller.entityDataVersion),
      ]);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        code: 200,
        status: 'success',
        message: '',
        data: page.map(rowOf),
        nextCursor: rows.length > query.limit && last ? cursorOf(query.sort, last) : null,
        total,
      };
    },
    caller.entityDataVersion,
  );
}

/** What bulk writes appended to PostgreSQL's count changes, folded before the first total needs it. */
export function foldEntityIndexCounts(db: Db): Promise<void> {
  return entityIndexRepository(db).foldCountDeltas();
}

/** Every matching row in the index's order as CSV, read a thousand rows at a time. */
export async function* entityIndexCsvLines(
  db: Db,
  kept: EntityIndexKept,
  filter: EntityIndexFilter,
  caller: Pick<Caller, 'username' | 'entityDataVersion'>,
): AsyncGenerator<string> {
  yield `${ENTITY_INDEX_CSV_COLUMNS.join(',')}\r\n`;
  const criteria = criteriaOf(filter, caller.username);
  const repository = entityIndexRepository(db);
  const lead = await kept.lead(criteria, caller.entityDataVersion);
  let after: EntityIndexKey | undefined;
  for (;;) {
    const rows = await repository.page(
      criteria,
      filter.sort,
      filter.order,
      after,
      CSV_ROWS_PER_READ,
      lead,
    );
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(ENTITY_INDEX_CSV_COLUMNS, rowOf(row))).join('');
    const last = rows.at(-1);
    if (rows.length < CSV_ROWS_PER_READ || !last) return;
    after = { value: last.sort_value, id: last.id };
  }
}
