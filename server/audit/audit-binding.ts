import type { FastifyRequest } from 'fastify';
import { requestPartOf } from './audit-trail.ts';
import type { AuditInTransaction } from './audit-trail.ts';

/**
 * Notes' and client updates' seam to the audit trail, until they declare their routes' audit as
 * the other resources do (`auditInTransaction(context.audit)`, http/route.ts): every change
 * appends its event inside its own transaction, so both commit or neither. The actor is the
 * account, or in gateway mode the reviewer bound to the caller's token.
 */
export function auditOf(request: FastifyRequest, action: string): AuditInTransaction {
  return (transaction, event) =>
    request.server.auditTrail.recordIn(transaction, {
      ...requestPartOf(request),
      action: event.action ?? action,
      entityId: event.entityId,
      documentId: event.documentId ?? null,
      detail: event.detail,
    });
}
