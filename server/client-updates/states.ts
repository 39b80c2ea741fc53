import type { ClientUpdateState } from '../../contract/client-updates.ts';

/** How long a client-update link works: PORTAL_LINK_DAYS' default (decisions.md "Client responses"). */
export const LINK_DAYS = 7;

const DAY_MS = 86_400_000;

/** When a link sent at `sentAt` stops working. */
export function linkExpiryOf(sentAt: string): string {
  return new Date(Date.parse(sentAt) + LINK_DAYS * DAY_MS).toISOString();
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
