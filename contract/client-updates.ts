import { z } from 'zod';
import { envelopeSchema } from './common.ts';
import { documentInputSchema, documentMetadataSchema } from './entities.ts';

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

/** One e-mail of a request: the first, a resend of a failed one, or a reminder. */
export const clientUpdateAttemptSchema = z.object({
  attempt: z.number().int(),
  kind: z.string(),
  /** `sent`, `failed`, or `sending` while the mail server has it. */
  outcome: z.string(),
  at: z.string(),
  error: z.string().nullable(),
  sentBy: z.string(),
});
export type ClientUpdateAttempt = z.infer<typeof clientUpdateAttemptSchema>;

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
  /** Every e-mail of the request, oldest first (embedded mode; absent where the server keeps none). */
  attempts: z.array(clientUpdateAttemptSchema).optional(),
  /**
   * From when "Send reminder" may be used: REMINDER_AFTER_DAYS after the last e-mail while the
   * request waits for an answer; null when no reminder applies (embedded mode).
   */
  reminderDueAt: z.string().nullable().optional(),
});
export type ClientUpdateRecord = z.infer<typeof clientUpdateRecordSchema>;
export const clientUpdateHistoryResponseSchema = envelopeSchema(z.array(clientUpdateRecordSchema));
export const clientUpdateRecordResponseSchema = envelopeSchema(clientUpdateRecordSchema);

/** The contact details a client may correct through the portal (decisions.md "Client responses"). */
export const CONTACT_FIELDS = ['email', 'phone', 'address'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const portalContactSchema = z.strictObject({
  email: z.email('Enter an e-mail address such as name@example.com.').max(254).optional(),
  phone: z
    .string()
    .trim()
    .min(3, 'Enter a phone number.')
    .max(40)
    .regex(/^[+\d][\d\s().-]*$/, 'A phone number has digits, spaces and + ( ) - . only.')
    .optional(),
  address: z.string().trim().min(1, 'Enter an address.').max(500).optional(),
});

/** Documents a client may send in one answer. */
export const MAX_PORTAL_DOCUMENTS = 10;

/** `POST /api/portal/{token}`: documents and corrections, at least one of them; nothing else. */
export const portalSubmissionSchema = z
  .strictObject({
    documents: z.array(documentInputSchema).max(MAX_PORTAL_DOCUMENTS).default([]),
    contact: portalContactSchema.optional(),
  })
  .refine((body) => body.documents.length > 0 || Object.keys(body.contact ?? {}).length > 0, {
    path: ['documents'],
    message: 'Add a document or a correction before sending.',
  });
export type PortalSubmission = z.infer<typeof portalSubmissionSchema>;

export const portalReceiptSchema = z.object({
  submittedAt: z.string(),
  documents: z.number().int(),
  contactFields: z.array(z.enum(CONTACT_FIELDS)),
});
export const portalReceiptResponseSchema = envelopeSchema(portalReceiptSchema);

/** A proposed correction beside the record's value as it is now. */
export const contactChangeSchema = z.object({
  field: z.enum(CONTACT_FIELDS),
  current: z.string().nullable(),
  proposed: z.string(),
});
export type ContactChange = z.infer<typeof contactChangeSchema>;

/** A client's answer as a reviewer reads it, with its documents and corrections. */
export const clientResponseSchema = z.object({
  requestId: z.string(),
  recipientId: z.string(),
  submittedAt: z.string(),
  contact: z.array(contactChangeSchema),
  contactOutcome: z.enum(['applied', 'dismissed']).nullable(),
  contactDecidedBy: z.string().nullable(),
  contactDecidedAt: z.string().nullable(),
  documents: z.array(documentMetadataSchema),
});
export type ClientResponse = z.infer<typeof clientResponseSchema>;
export const clientResponseResponseSchema = envelopeSchema(clientResponseSchema);

export const contactDecisionSchema = z.strictObject({ action: z.enum(['apply', 'dismiss']) });
export type ContactDecision = z.infer<typeof contactDecisionSchema>;
