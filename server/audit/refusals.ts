import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { Refusal } from '../http/refusal.ts';
import type { AuditEventInput, AuditOutcome, AuditTrail } from './audit-trail.ts';
import { databaseFaultOf } from '../db/database-faults.ts';

/** The refusals of a control that are always on the record (docs/audit.md, "Refused calls"). */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 409, 429]);

/** One rule for both modes: refused by a control (401, 403, 429) is `denied`, any other error `failure`. */
export function outcomeOfStatus(status: number): AuditOutcome {
  if (status === 401 || status === 403 || status === 429) return 'denied';
  return status >= 400 ? 'failure' : 'success';
}

/** The reason of a refusal that names none of its own. */
const REASONS_BY_STATUS: Readonly<Record<number, string>> = {
  401: 'unauthenticated',
  403: 'forbidden',
  409: 'conflict',
  429: 'too-many-requests',
};

/** Unauthenticated refusals recorded per client address and route, and in all, per window. */
export const UNAUTHENTICATED_WINDOW_MS = 60_000;
export const UNAUTHENTICATED_PER_WINDOW = 100;

/**
 * Keeps unauthenticated refusals (401) from flooding the trail: anyone can send them, so one per
 * client address and route a minute is recorded, at most a hundred a minute in all; the next one
 * recorded counts those left out (`detail.unrecordedRefusals`), and each is in the server log.
 */
class UnauthenticatedRefusals {
  private windowStart = 0;
  private recordedInWindow = 0;
  private readonly lastRecorded = new Map<string, { at: number; unrecorded: number }>();

  admit(key: string, nowMs: number): { record: boolean; unrecorded: number } {
    if (nowMs - this.windowStart >= UNAUTHENTICATED_WINDOW_MS) {
      this.windowStart = nowMs;
      this.recordedInWindow = 0;
      for (const [seen, entry] of this.lastRecorded) {
        if (nowMs - entry.at >= 2 * UNAUTHENTICATED_WINDOW_MS) this.lastRecorded.delete(seen);
      }
    }
    const entry = this.lastRecorded.get(key);
    if (entry && nowMs - entry.at < UNAUTHENTICATED_WINDOW_MS) {
      entry.unrecorded += 1;
      return { record: false, unrecorded: entry.unrecorded };
    }
    if (this.recordedInWindow >= UNAUTHENTICATED_PER_WINDOW)
      return { record: false, unrecorded: 0 };
    this.recordedInWindow += 1;
    this.lastRecorded.set(key, { at: nowMs, unrecorded: 0 });
    return { record: true, unrecorded: entry?.unrecorded ?? 0 };
  }
}

const throttles = new WeakMap<AuditTrail, UnauthenticatedRefusals>();
const recordedRequests = new WeakSet<FastifyRequest>();

function throttleOf(trail: AuditTrail): UnauthenticatedRefusals {
  let throttle = throttles.get(trail);
  if (!throttle) {
    throttle = new UnauthenticatedRefusals();
    throttles.set(trail, throttle);
  }
  return throttle;
}

/** Says that the request's event is written, so no refusal event is added for it. */
export function markRecorded(request: FastifyRequest): void {
  recordedRequests.add(request);
}

/** Status, reason (the refusal's own word, else the status's) and the answer's message. */
export function refusalDetailOf(status: number, error?: unknown): Record<string, unknown> {
  const reason = error instanceof Refusal ? error.reason : REASONS_BY_STATUS[status];
  return {
    status,
    ...(reason ? { reason } : {}),
    ...(error instanceof ApiError ? { message: error.message } : {}),
  };
}

/**
 * Records a refused or failed call once: outcome by its status, the reason in its detail, and the
 * entity or document a Refusal names. A failing write is logged, never instead of the answer.
 */
export async function recordRefusal(
  request: FastifyRequest,
  event: AuditEventInput,
  status: number,
  error?: unknown,
): Promise<void> {
  if (recordedRequests.has(request)) return;
  recordedRequests.add(request);
  const trail = request.server.auditTrail;
  const detail: Record<string, unknown> = { ...event.detail, ...refusalDetailOf(status, error) };
  if (status === 401) {
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const admitted = throttleOf(trail).admit(`${request.ip} ${route}`, Date.now());
    if (!admitted.record) {
      request.log.info(
        { status, action: event.action, unrecorded: admitted.unrecorded },
        'unauthenticated refusal left out of the audit trail: one from this address is there this minute',
      );
      return;
    }
    if (admitted.unrecorded > 0) detail.unrecordedRefusals = admitted.unrecorded;
  }
  try {
    await trail.record({
      ...event,
      ...(error instanceof Refusal ? error.target : {}),
      outcome: outcomeOfStatus(status),
      detail,
    });
  } catch (auditError) {
    // A full storage or an unreachable database is logged once per change of state (db/database-faults.ts).
    if (databaseFaultOf(auditError) !== undefined) return;
    request.log.error({ err: auditError }, 'audit event of a refused request not written');
  }
}
