import type { WaitingDecisionsPage, WaitingDecisionsQuery } from '../../contract/decisions.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { decisionsRepository, type WaitingDecisionRow } from './repository.ts';
import { pendingOf } from './service.ts';

function keyOfCursor(cursor: string): { at: string; id: string } {
  return decodeCursor(cursor, ([at, id, ...rest]) =>
    typeof at === 'string' && typeof id === 'string' && id.length > 0 && rest.length === 0
      ? { at, id }
      : undefined,
  );
}

function nameOf(row: WaitingDecisionRow): string {
  return row.entity_kind === 'legal'
    ? (row.company_name ?? '')
    : [row.first_name, row.middle_name, row.last_name].filter(Boolean).join(' ');
}

/**
 * One page of the held decisions the caller may confirm: recorded by another account, oldest
 * first. An auditor confirms nothing, so nothing waits for one.
 */
export async function waitingDecisionsPage(
  db: Db,
  caller: Pick<Caller, 'accountId' | 'role'>,
  query: WaitingDecisionsQuery,
): Promise<WaitingDecisionsPage> {
  const empty = { code: 200, status: 'success' as const, message: '', data: [], nextCursor: null };
  if (caller.role !== 'reviewer') return { ...empty, total: 0 };
  const repository = decisionsRepository(db);
  const after = query.cursor === undefined ? undefined : keyOfCursor(query.cursor);
  // One row more than asked tells whether a next page exists.
  const rows = await repository.waitingFor(caller.accountId, after, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    ...empty,
    data: page.map((row) => ({
      ...pendingOf(row),
      entityName: nameOf(row),
      entityType:
        row.entity_kind === 'legal' ? ('Legal Entity' as const) : ('Natural Person' as const),
    })),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor([last.requested_at, last.id]) : null,
    total: await repository.countWaitingFor(caller.accountId),
  };
}
