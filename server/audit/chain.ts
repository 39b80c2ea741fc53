import crypto from 'node:crypto';
import type { AuditEventTable } from '../db/schema.ts';

/** The `prev_hash` of the first event ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/** What an event's hash covers: every column but `hash` itself. */
export type ChainedEvent = Omit<AuditEventTable, 'hash'>;

/** JSON with object keys sorted at every level, so one detail has exactly one spelling. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : inner,
  );
}

/** SHA-256 (hex) of the event's canonical form: a fixed-order JSON array of its columns. */
export function hashOfEvent(event: ChainedEvent): string {
  const canonical = JSON.stringify([
    event.seq,
    event.id,
    event.at,
    event.actor,
    event.action,
    event.entity_id,
    event.document_id,
    event.outcome,
    event.request_id,
    event.client_address,
    event.detail,
    event.prev_hash,
  ]);
  return crypto.createHash('sha256').update(canonical).digest('hex');
}
