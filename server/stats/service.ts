import type { Stats } from '../../contract/stats.ts';
import { KYC_STATUSES, RISK_LEVELS } from '../../contract/entities.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { createVersionedCache } from '../db/versioned-cache.ts';
import { decisionsRepository } from '../decisions/repository.ts';
import { utcDateOf, type WindowCounts } from '../reviews/service.ts';
import { statsRepository, type PortfolioGroup } from './repository.ts';

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

function breakdownOf(
  groups: PortfolioGroup[],
): Pick<Stats, 'total' | 'byStatus' | 'byRisk' | 'byType'> {
  const byStatus = zeroes(KYC_STATUSES);
  const byRisk = zeroes(RISK_LEVELS);
  const byType = { legalEntities: 0, naturalPersons: 0 };
  let total = 0;
  for (const group of groups) {
    total += group.count;
    if (group.kycStatus in byStatus)
      byStatus[group.kycStatus as keyof typeof byStatus] += group.count;
    if (group.riskLevel in byRisk) byRisk[group.riskLevel as keyof typeof byRisk] += group.count;
    if (group.kind === 'legal') byType.legalEntities += group.count;
    else byType.naturalPersons += group.count;
  }
  return { total, byStatus, byRisk, byType };
}

/** Callers whose own counts are kept: a team's reviewers, with room to spare. */
const MAX_KEPT_CALLER_COUNTS = 256;

/**
 * The overview's counts on the day of `now` (UTC). The breakdowns walk every entity, and the
 * caller's assigned count and the decisions waiting for the caller read their indexes; all are
 * kept until the next write that moves the change counter. The due windows are the queue's own
 * counts (one way to count).
 */
export function createStats(db: Db, windowCounts: WindowCounts) {
  const breakdowns = createVersionedCache<ReturnType<typeof breakdownOf>>(db, { entries: 1 });
  // An assignment is entity data, and a held decision moves the same counter (0042): each
  // caller's counts are kept until the next such write.
  const assigned = createVersionedCache<number>(db, { entries: MAX_KEPT_CALLER_COUNTS });
  const waiting = createVersionedCache<number>(db, { entries: MAX_KEPT_CALLER_COUNTS });
  return async function stats(
    now: Date,
    caller: Pick<Caller, 'accountId' | 'username' | 'role' | 'entityDataVersion'>,
  ): Promise<Stats> {
    const today = utcDateOf(now);
    const [breakdown, due, assignedToMe, pendingConfirmations] = await Promise.all([
      breakdowns.get(
        'portfolio',
        async () => breakdownOf(await statsRepository(db).portfolioGroups()),
        caller.entityDataVersion,
      ),
      windowCounts(today, {}, caller.entityDataVersion),
      assigned.get(
        caller.username,
        () => statsRepository(db).assignedTo(caller.username),
        caller.entityDataVersion,
      ),
      // An auditor confirms nothing, so nothing waits for one (as the waiting list says).
      caller.role === 'reviewer'
        ? waiting.get(
            caller.accountId,
            () => decisionsRepository(db).countWaitingFor(caller.accountId),
            caller.entityDataVersion,
          )
        : Promise.resolve(0),
    ]);
    return {
      ...breakdown,
      due: { overdue: due.overdue, due7: due.due7, due30: due.due30, undated: due.undated },
      pendingConfirmations,
      assignedToMe,
      today,
    };
  };
}
