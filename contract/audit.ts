import { z } from 'zod';
import { isoDateSchema } from './common.ts';
import { pagedEnvelopeSchema, pageQuerySchema } from './paging.ts';

/**
 * Every action the server records, `resource.verb` (decisions.md, "Extensions"): the routes' own,
 * the client portal's and the gateway's, and the admin commands' (`account:create` → `account.create`).
 * server/audit/audit-actions.test.ts fails when the server records one that is not here.
 */
export const AUDIT_ACTIONS = [
  'auth.sign-in',
  'auth.sign-in-failed',
  'auth.sign-out',
  'entity.list',
  'entity.index',
  'entity.export',
  'entity.search',
  'entity.view',
  'entity.create',
  'entity.assign',
  'entity.risk-level',
  'document.list',
  'document.view',
  'document.decide',
  'client-update.request',
  'client-update.open',
  'client-update.submit',
  'client-update.contact',
  'client-update.review',
  'client-update.remind',
  'webhook.receive',
  'review.export',
  'verification.record',
  'verification.confirm',
  'verification.reject',
  'person.review',
  'note.add',
  'audit.read',
  'audit.export',
  'stats.read',
  /** A control's refusal when its route declares no action (the refusal matrix test fails first). */
  'request.refused',
  'account.create',
  'account.reset-password',
  'account.disable',
  'account.revoke-sessions',
  'account.set-role',
  'account.list',
  'api-key.reset',
  'client-config.set',
  'client-config.remove',
  'client-config.list',
  'audit.verify',
  'audit.prune',
  'keys.rotate',
  'db.backup',
  'db.restore',
  'db.copy-to-postgres',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A client acting through the portal's link is the actor `client:<recipient entity id>`. */
export const CLIENT_ACTOR_PREFIX = 'client:';

/** The recipient a client's actor names; undefined for any other actor. */
export function clientRecipientOf(actor: string): string | undefined {
  return actor.startsWith(CLIENT_ACTOR_PREFIX)
    ? actor.slice(CLIENT_ACTOR_PREFIX.length)
    : undefined;
}

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;

export const auditEventSchema = z.object({
  id: z.string(),
  /** ISO 8601 with milliseconds, UTC. */
  at: z.string(),
  /** The account's username; `admin-cli` for operator commands; `anonymous` before sign-in. */
  actor: z.string(),
  /**
   * The actor's display name when this server holds the account, or for a client's actor
   * (`client:<id>`) the recipient's name (null in gateway mode or once deleted).
   */
  actorName: z.string().nullish(),
  action: z.string(),
  entityId: z.string().nullable(),
  /** The entity's name when the server holds it (the audit lists add it; null when unknown). */
  entityName: z.string().nullish(),
  documentId: z.string().nullable(),
  outcome: z.string(),
  requestId: z.string().nullable(),
  clientAddress: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditEventPageSchema = pagedEnvelopeSchema(auditEventSchema);
export type AuditEventPage = z.infer<typeof auditEventPageSchema>;

const textFilter = z.string().trim().min(1).max(200).optional();

/** Filters of the global audit log; `from` and `to` are days (UTC), both inclusive. */
export const auditFilterSchema = z.object({
  actor: textFilter,
  action: textFilter,
  entityId: textFilter,
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditLogQuerySchema = z.strictObject({
  ...auditFilterSchema.shape,
  ...pageQuerySchema(100, 500),
  format: z.enum(['json', 'csv']).default('json'),
});

/** Verbs of actions that only look (a page view, a listing, a download): everything else changes or asks. */
export const READ_VERBS = ['view', 'list', 'search', 'read', 'export'] as const;

/** `entity.view`, `document.list` … are reads; `document.decide`, `note.add` … are not. */
export function isReadAction(action: string): boolean {
  const verb = action.slice(action.lastIndexOf('.') + 1);
  return (READ_VERBS as readonly string[]).includes(verb);
}

/** An entity's Activity asks for its changes and its views apart, so views never bury a decision. */
export const ENTITY_AUDIT_KINDS = ['all', 'changes', 'views'] as const;
export type EntityAuditKind = (typeof ENTITY_AUDIT_KINDS)[number];

export const entityAuditQuerySchema = z.strictObject({
  ...pageQuerySchema(50, 500),
  kind: z.enum(ENTITY_AUDIT_KINDS).default('all'),
});

export const ROLES = ['reviewer', 'auditor'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;
