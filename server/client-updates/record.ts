import type { Selectable } from 'kysely';
import type { ClientUpdateAttempt, ClientUpdateRecord } from '../../contract/client-updates.ts';
import type { RelayedClientUpdateTable } from '../db/schema.ts';
import type { ClientUpdateAttemptRow } from './repository.ts';
import { ApiError } from '../http/errors.ts';
import { stateAt } from './states.ts';

const DAY_MS = 86_400_000;

/**
 * The columns a request has in either mode's table: `client_update_requests` (embedded) and the
 * gateway's `relayed_client_update_requests`, under the request's id and the requester's name.
 */
export type RequestRecordRow = Omit<
  Selectable<RelayedClientUpdateTable>,
  'position' | 'request_id'
> & { id: string; requested_by_name: string | null };

function toAttempt(row: ClientUpdateAttemptRow): ClientUpdateAttempt {
  return {
    attempt: row.attempt,
    kind: row.kind,
    outcome: row.outcome,
    at: row.at,
    error: row.error,
    sentBy: row.sent_by,
  };
}

/**
 * From when a reminder may go: `afterDays` after the last e-mail that reached the mail server,
 * while the request still waits for an answer; null when it does not wait (or never went out).
 */
export function reminderDueAtOf(
  state: string,
  attempts: readonly ClientUpdateAttemptRow[],
  afterDays: number,
): string | null {
  if (state !== 'sent' && state !== 'opened') return null;
  const delivered = attempts.filter((a) => a.outcome === 'sent' || a.outcome === 'sending');
  const last = delivered.at(-1);
  return last ? new Date(Date.parse(last.at) + afterDays * DAY_MS).toISOString() : null;
}

/**
 * A request as readers see it now, in both modes. `mailedHere` only where this server sends the
 * e-mails itself (embedded): its attempts and when a reminder may go.
 */
export function toRecord(
  row: RequestRecordRow,
  now: Date,
  mailedHere?: { attempts: readonly ClientUpdateAttemptRow[]; reminderAfterDays: number },
): ClientUpdateRecord {
  const state = stateAt(row.state, row.expires_at, now);
  return {
    requestId: row.id,
    entityId: row.entity_id,
    recipientId: row.recipient_id,
    recipientEmail: row.recipient_email,
    configId: row.config_id,
    subject: row.subject,
    domain: row.domain,
    status: row.status,
    error: row.error,
    requestedBy: row.requested_by,
    requestedByName: row.requested_by_name,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    state,
    openedAt: row.opened_at,
    submittedAt: row.submitted_at,
    reviewedAt: row.reviewed_at,
    reviewedBy: row.reviewed_by,
    expiresAt: row.expires_at,
    ...(mailedHere
      ? {
          attempts: mailedHere.attempts.map(toAttempt),
          reminderDueAt: reminderDueAtOf(state, mailedHere.attempts, mailedHere.reminderAfterDays),
        }
      : {}),
  };
}

/** Only a response that arrived can be reviewed. */
export function notSubmitted(state: string): ApiError {
  return new ApiError(
    409,
    `Only a submitted response can be marked reviewed; this request is ${state}.`,
  );
}
