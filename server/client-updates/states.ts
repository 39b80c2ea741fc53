import type { ClientUpdateState } from '../../contract/client-updates.ts';

const DAY_MS = 86_400_000;

/** When a link sent at `sentAt` stops working: `linkDays` (PORTAL_LINK_DAYS) later. */
export function linkExpiryOf(sentAt: string, linkDays: number): string {
  return new Date(Date.parse(sentAt) + linkDays * DAY_MS).toISOString();
}

/**
 * The state a reader sees: a request still waiting (`sent`, `opened`) whose link has lapsed is
 * `expired`, read at the time of asking so that no sweeper has to run.
 */
export function stateAt(
  stored: ClientUpdateState,
  expiresAt: string | null,
  now: Date,
): ClientUpdateState {
  const waiting = stored === 'sent' || stored === 'opened';
  return waiting && expiresAt !== null && Date.parse(expiresAt) <= now.getTime()
    ? 'expired'
    : stored;
}
