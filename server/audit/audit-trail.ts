import type { FastifyRequest } from 'fastify';
import type { AUDIT_OUTCOMES } from '../../contract/audit.ts';
import type { Db } from '../db/database.ts';
import { canonicalJson, hashOfEvent } from './chain.ts';
import { auditRepository, type AuditEventRow, type ChainHead } from './repository.ts';
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
 * The append-only, hash-chained audit trail (docs/audit.md). Every append holds the write lock,
 * which on both engines admits one writer at a time, so each event chains to the one before it.
 */
export function createAuditTrail(db: Db, now: () => Date) {
  /** The events that continue the chain from `head`, with their hashes. */
  function rowsAfter(head: ChainHead, events: readonly AuditEventInput[]): AuditEventRow[] {
    const nowMs = now().getTime();
    const at = new Date(nowMs).toISOString();
    let previous = head;
    return events.map((event) => {
      const unhashed = {
        seq: previous.seq + 1,
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
        prev_hash: previous.hash,
      };
      const row = { ...unhashed, hash: hashOfEvent(unhashed) };
      previous = { seq: row.seq, hash: row.hash };
      return row;
    });
  }

  async function appendIn(trx: Db, events: readonly AuditEventInput[]): Promise<void> {
    const repository = auditRepository(trx);
    await repository.insert(rowsAfter(await repository.head(), events));
  }

  // The event this process appended last: the next batch is built on it and appended in one
  // statement (one round trip on PostgreSQL instead of four), refused if another writer came between.
  let lastAppended: ChainHead | undefined;

  async function appendBatch(events: readonly AuditEventInput[]): Promise<void> {
    const repository = auditRepository(db);
    const appendAfter = async (head: ChainHead) => {
      const rows = rowsAfter(head, events);
      if (!(await repository.appendAfter(head, rows))) return false;
      const last = rows.at(-1);
      lastAppended = last && { seq: last.seq, hash: last.hash };
      return true;
    };
    const guess = lastAppended;
    lastAppended = undefined;
    if (guess && (await appendAfter(guess))) return;
    if (await appendAfter(await repository.head())) return;
    // The chain ends at its anchor or genesis, or another writer appended again in between.
    await db.transaction().execute((trx) => appendIn(trx, events));
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
        await appendBatch(batch.map((item) => item.event));
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
      lastAppended = undefined;
      return appendIn(trx, [event]);
    },
    /** Many events at once (bulk tests and benchmarks). */
    recordMany(events: readonly AuditEventInput[]): Promise<void> {
      lastAppended = undefined;
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
