import type { AuditEvent } from '../../../../contract/audit.ts';
import { envelope } from '../../../testing/handlers.ts';

let sequence = 0;

/** An event as the server sends it: a success by `dana`, a minute after the previous one. */
export function buildAuditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  sequence += 1;
  return {
    id: `evt-${String(sequence).padStart(6, '0')}`,
    at: new Date(Date.UTC(2026, 2, 1, 9, sequence)).toISOString(),
    actor: 'dana',
    action: 'entity.view',
    entityId: null,
    documentId: null,
    outcome: 'success',
    requestId: `req-${sequence}`,
    clientAddress: '203.0.113.7',
    detail: {},
    ...overrides,
  };
}

/** A page of the paged envelope; `nextCursor` null on the last page. */
export function auditPage(events: AuditEvent[], nextCursor: string | null = null) {
  return { ...envelope(events), nextCursor };
}

/** The value, or a failure naming what was missing (instead of a non-null assertion). */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Expected ${what}.`);
  return value;
}
