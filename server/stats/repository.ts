import type { Db } from '../db/database.ts';
import { takeFirstPrepared } from '../db/prepared-statements.ts';

/** How many entities share one kind, status and risk level. */
export interface PortfolioGroup {
  kind: string;
  kycStatus: string;
  riskLevel: string;
  count: number;
}

/** The only place with SQL for the overview's counts. */
export function statsRepository(db: Db) {
  return {
    /** Every entity counted once, by kind, status and risk level: one walk for three breakdowns. */
    async portfolioGroups(): Promise<PortfolioGroup[]> {
      const rows = await db
        .selectFrom('entities')
        .select((eb) => [
          'kind',
          'kyc_status',
          'risk_level',
          eb.fn.countAll<number | string>().as('count'),
        ])
        .groupBy(['kind', 'kyc_status', 'risk_level'])
        .execute();
      // PostgreSQL's count() is a bigint, which pg returns as a string.
      return rows.map((row) => ({
        kind: row.kind,
        kycStatus: row.kyc_status,
        riskLevel: row.risk_level,
        count: Number(row.count),
      }));
    },

    /** Entities assigned to `username` (a range of an assignee index of 0029); prepared, on every overview. */
    async assignedTo(username: string): Promise<number> {
      const row = await takeFirstPrepared(
        db,
        db
          .selectFrom('entities')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('assignee', '=', username),
      );
      return Number(row?.count ?? 0);
    },
  };
}
