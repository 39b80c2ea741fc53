import { z } from 'zod';
import { envelopeSchema } from './common.ts';

/** A host name: labels of letters, digits and hyphens; no scheme, port, path or user info. */
export const hostNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/,
    'domain must be a host name such as portal.example.com (no scheme, port or path).',
  );

export const clientUpdateRequestSchema = z.object({
  recepientId: z.string().trim().min(1, 'Choose a recipient.').max(100),
  emailSubject: z
    .string()
    .trim()
    .min(1, 'Enter a subject.')
    .max(200, 'The subject can be at most 200 characters.')
    .refine((subject) => !/[\r\n]/.test(subject), 'The subject cannot contain line breaks.'),
  emailMessage: z
    .string()
    .trim()
    .min(1, 'Enter a message.')
    .max(10_000, 'The message can be at most 10,000 characters.'),
  configId: z.number({ error: 'configId must be a whole number.' }).int().positive(),
  domain: hostNameSchema,
});
export type ClientUpdateRequest = z.infer<typeof clientUpdateRequestSchema>;

export const clientUpdateAcceptedSchema = z.object({
  requestId: z.string(),
  recipientEmail: z.string(),
  sentAt: z.string(),
});
export const clientUpdateAcceptedResponseSchema = envelopeSchema(clientUpdateAcceptedSchema);

export const clientUpdateConfigSchema = z.object({
  configId: z.number().int(),
  name: z.string(),
  description: z.string(),
  defaultSubject: z.string(),
  defaultMessage: z.string(),
  defaultDomain: z.string(),
});
export type ClientUpdateConfig = z.infer<typeof clientUpdateConfigSchema>;
/**
 * The configurations; `allowedDomains` (beside `data`) lists the host names `domain` may take,
 * PORTAL_DOMAIN first. Optional: a service that does not send it accepts its configurations'
 * `defaultDomain`.
 */
export const clientUpdateConfigListResponseSchema = envelopeSchema(
  z.array(clientUpdateConfigSchema),
).extend({ allowedDomains: z.array(z.string()).optional() });

/** Delivery of the e-mail: handed to the mail server (or the identity service), or not. */
export const CLIENT_UPDATE_STATUSES = ['sent', 'failed'] as const;

/**
 * Where a request stands (decisions.md "Client responses"): `sent` → `opened` → `submitted` →
 * `reviewed`, or `failed` (never delivered) / `expired` (the link lapsed unanswered).
 */
export const CLIENT_UPDATE_STATES = [
  'sent',
  'opened',
  'submitted',
  'reviewed',
  'failed',
  'expired',
] as const;
export type ClientUpdateState = (typeof CLIENT_UPDATE_STATES)[number];

export const clientUpdateRecordSchema = z.object({
  requestId: z.string(),
  entityId: z.string(),
  recipientId: z.string(),
  recipientEmail: z.string(),
  configId: z.number().int(),
  subject: z.string(),
  domain: z.string(),
  status: z.enum(CLIENT_UPDATE_STATUSES),
  error: z.string().nullable(),
  requestedBy: z.string(),
  /** The requesting account's display name (embedded mode); null when the server does not know it. */
  requestedByName: z.string().nullable().optional(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  state: z.enum(CLIENT_UPDATE_STATES),
  /** When the client first opened the link; null until then. */
  openedAt: z.string().nullable(),
  /** When the client's answer arrived (portal submission, or the identity service's webhook). */
  submittedAt: z.string().nullable(),
  /** When a reviewer marked the answer reviewed, and who. */
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  /** When the link stops working; null for a request never delivered. */
  expiresAt: z.string().nullable(),
});
export type ClientUpdateRecord = z.infer<typeof clientUpdateRecordSchema>;
export const clientUpdateHistoryResponseSchema = envelopeSchema(z.array(clientUpdateRecordSchema));
export const clientUpdateRecordResponseSchema = envelopeSchema(clientUpdateRecordSchema);
