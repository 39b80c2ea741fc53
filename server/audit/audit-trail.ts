import type { FastifyRequest } from 'fastify';
import type { AUDIT_OUTCOMES } from '../../contract/audit.ts';
import type { Db } from '../db/database.ts';
import { canonicalJson, hashOfEvent } from './chain.ts';
import { auditRepository, type AuditEventRow } from './repository.ts';
import { timeOrderedUuid } from './time-ordered-id.ts';

export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One event as its writer describes it; the trail adds id, time, order and hashes. */
export interface AuditEventInput {
  actor: string;
  action: string;
  entityId?: string | null;
  documentId?: string | null;
  outcome?: AuditOutcome;
  requestId?: string | null;
  clientAddress?: string | null;
  detail?: Record<string, unknown>;
}

/** What a change adds to the audit trail besides who asked (decisions.md, "Extensions"). */
export interface ChangeAuditEvent {
  /** Another action than the route's (confirming a risk change records `entity.risk-level`). */
  action?: string;
  entityId: string;
  documentId?: string;
  detail: Record<string, unknown>;
}

/** Writes the change's audit event inside the change's own transaction, so both commit or neither. */
export type AuditInTransaction = (transaction: Db, event: ChangeAuditEvent) => Promise<void>;

/**
 * The append-only, hash-chained audit trail (docs/audit.md). Appends run in a write transaction,
 * which on both engines admits one writer at a time, so each event chains to the one before it.
 */
export function createAuditTrail(db: Db, now: () => Date) {
  async function appendIn(trx: Db, events: readonly AuditEventInput[]): Promise<void> {
    const repository = auditRepository(trx);
    let head = await repository.head();
    const nowMs = now().getTime();
    const at = new Date(nowMs).toISOString();
    const rows: AuditEventRow[] = events.map((event) => {
      const unhashed = {
        seq: head.seq + 1,
        id: timeOrderedUuid(nowMs),
        at,
        actor: event.actor,
        action: event.action,
        entity_id: event.entityId ?? null,
        document_id: event.documentId ?? null,
        outcome: event.outcome ?? 'success',
        request_id: event.requestId ?? null,
        client_address: event.clientAddress ?? null,
        detail: canonicalJson(event.detail ?? {}),
        prev_hash: head.hash,
      };
      const row = { ...unhashed, hash: hashOfEvent(unhashed) };
      head = { seq: row.seq, hash: row.hash };
      return row;
    });
    await repository.insert(rows);
  }

  // Group commit: a batch is written once the requests already received have queued their events
  // (setImmediate runs after this turn's I/O), and events that arrive while it is written go in the
  // next one; each caller still waits until its own event is committed.
  let queued: { event: AuditEventInput; settle: (error?: Error) => void }[] = [];
  let writing = false;
  async function writeQueued(): Promise<void> {
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await db.transaction().execute((trx) =>
          appendIn(
            trx,
            batch.map((item) => item.event),
          ),
        );
        for (const item of batch) item.settle();
      } catch (error) {
        const failure =
          error instanceof Error ? error : new Error('The audit events could not be written.');
        for (const item of batch) item.settle(failure);
      }
    }
    writing = false;
  }

  return {
    /** Appends in a transaction of its own; throws (so the request fails) when it cannot. */
    record(event: AuditEventInput): Promise<void> {
      return new Promise((resolve, reject) => {
        queued.push({
          event,
          settle: (error) => {
            if (error === undefined) resolve();
            else reject(error);
          },
        });
        if (!writing) {
          writing = true;
          setImmediate(() => void writeQueued());
        }
      });
    },
    /** Appends inside the caller's transaction, so the event and the change commit together. */
    recordIn(trx: Db, event: AuditEventInput): Promise<void> {
      return appendIn(trx, [event]);
    },
    /** Many events at once (bulk tests and benchmarks). */
    recordMany(events: readonly AuditEventInput[]): Promise<void> {
      return db.transaction().execute((trx) => appendIn(trx, events));
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once on the root instance by createApp, in both modes. */
    auditTrail: AuditTrail;
  }
  interface FastifyRequest {
    /** Gateway mode, a forwarded call: whom the caller's token names (no role is needed there). */
    reviewer?: string;
  }
}

/** Who is acting: the signed-in account, the gateway's reviewer, else `anonymous`. */
export function actorOf(request: FastifyRequest): string {
  return request.caller?.username ?? request.reviewer ?? 'anonymous';
}

/** The fields of an event that come from the request itself. */
export function requestPartOf(
  request: FastifyRequest,
): Pick<AuditEventInput, 'actor' | 'requestId' | 'clientAddress'> {
  return { actor: actorOf(request), requestId: request.id, clientAddress: request.ip };
}
