import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  ClientUpdateConfig,
  ClientUpdateRecord,
  ClientUpdateRequest,
} from '../../contract/client-updates.ts';
import type { FieldError } from '../../contract/common.ts';
import { ApiError } from '../http/errors.ts';
import { MailDeliveryError, type Mailer } from '../mail/mailer.ts';
import type { AppServices } from '../services.ts';
import { renderClientUpdateEmail, type RenderedEmail } from './email.ts';
import { linkExpiryOf, stateAt } from './states.ts';
import {
  clientUpdatesRepository,
  type ClientUpdateRequestRow,
  type LinkedPerson,
} from './repository.ts';

export interface ClientUpdateAccepted {
  requestId: string;
  recipientEmail: string;
  sentAt: string;
}

const OUTBOX_FAILURE = 'The message could not be written to the outbox.';

function fullName(person: LinkedPerson): string {
  return [person.firstName, person.middleName, person.lastName]
    .filter((part): part is string => Boolean(part?.trim()))
    .join(' ');
}

function toRecord(row: ClientUpdateRequestRow, now: Date): ClientUpdateRecord {
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
    state: stateAt(row.state, row.expires_at, now),
    openedAt: row.opened_at,
    submittedAt: row.submitted_at,
    reviewedAt: row.reviewed_at,
    reviewedBy: row.reviewed_by,
    expiresAt: row.expires_at,
  };
}

function unknownLegalEntity(entityId: string): ApiError {
  return new ApiError(404, `No legal entity with id ${entityId}.`);
}

function unknownRequest(requestId: string): ApiError {
  return new ApiError(404, `No client-update request ${requestId} for this legal entity.`);
}

/** Only a response that arrived can be reviewed. */
export function notSubmitted(state: string): ApiError {
  return new ApiError(
    409,
    `Only a submitted response can be marked reviewed; this request is ${state}.`,
  );
}

export function clientUpdateService(services: AppServices, mailer: Mailer) {
  const repository = clientUpdatesRepository(services.db);
  /** Requests being sent again right now: a second click waits for the first, never a second e-mail. */
  const resending = new Set<string>();
  const { portalDomain, portalDomains } = services.config;
  /** One e-mail of a request, first sent or sent again: its own id rides along as a header. */
  const sendEmail = (
    requestId: string,
    to: { name: string; address: string },
    email: RenderedEmail,
  ) =>
    mailer.send({
      id: requestId,
      from: services.config.mailFrom,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      headers: { 'X-KYC-Desk-Request-Id': requestId },
    });
  const allowedDomains = [
    ...new Set([portalDomain, ...portalDomains].map((host) => host.toLowerCase())),
  ];

  return {
    /** Host names a client-update link may point to: PORTAL_DOMAIN, then PORTAL_DOMAINS. */
    allowedDomains,

    async listConfigs(): Promise<ClientUpdateConfig[]> {
      const rows = await repository.listConfigs();
      return rows.map((row) => ({
        configId: row.config_id,
        name: row.name,
        description: row.description,
        defaultSubject: row.default_subject,
        defaultMessage: row.default_message,
        defaultDomain: services.config.portalDomain,
      }));
    },

    /** Sends the e-mail and records the attempt, whether it was delivered or not. */
    async requestUpdate(
      entityId: string,
      body: ClientUpdateRequest,
      context: {
        requestedBy: string;
        log: FastifyBaseLogger;
        /** Names the recipient in the call's audit event, sent or not. */
        describe?: (detail: Record<string, unknown>) => void;
      },
    ): Promise<ClientUpdateAccepted> {
      if (!(await repository.legalEntityExists(entityId))) throw unknownLegalEntity(entityId);

      const [config, recipient] = await Promise.all([
        repository.findConfig(body.configId),
        repository.findLinkedPerson(entityId, body.recepientId),
      ]);
      if (!recipient || !config) {
        const fieldErrors: FieldError[] = [
          ...(recipient
            ? []
            : [
                {
                  field: 'recepientId',
                  message: 'The recipient must be a natural person linked to this legal entity.',
                },
              ]),
          ...(config
            ? []
            : [
                {
                  field: 'configId',
                  message: `No e-mail configuration ${body.configId}; GET /api/v2/client-update-configs lists them.`,
                },
              ]),
        ];
        const message = fieldErrors.map((e) => `Invalid field ${e.field}: ${e.message}`).join(' ');
        throw new ApiError(400, message, fieldErrors);
      }
      if (!recipient.email) {
        throw new ApiError(
          409,
          'The recipient has no e-mail address on record. Add one to the person or choose another recipient.',
          [{ field: 'recepientId', message: 'This person has no e-mail address.' }],
        );
      }

      context.describe?.({
        recipientId: recipient.id,
        recipientName: fullName(recipient),
        configId: config.config_id,
      });
      const requestId = randomUUID();
      const createdAt = services.now().toISOString();
      const email = renderClientUpdateEmail({
        requestId,
        domain: body.domain,
        subject: body.emailSubject,
        message: body.emailMessage,
      });
      const record = {
        id: requestId,
        entity_id: entityId,
        recipient_id: recipient.id,
        recipient_email: recipient.email,
        config_id: config.config_id,
        subject: body.emailSubject,
        message: body.emailMessage,
        domain: body.domain,
        requested_by: context.requestedBy,
        created_at: createdAt,
      };

      try {
        await sendEmail(requestId, { name: fullName(recipient), address: recipient.email }, email);
      } catch (error) {
        const delivery = error instanceof MailDeliveryError ? error.message : OUTBOX_FAILURE;
        await repository.insertRequest({
          ...record,
          status: 'failed',
          state: 'failed',
          error: delivery,
          sent_at: null,
        });
        context.log.warn(
          { requestId, entityId, via: mailer.via },
          `client update e-mail not delivered: ${delivery}`,
        );
        if (error instanceof MailDeliveryError) {
          throw new ApiError(502, `The mail server did not accept the message: ${delivery}`);
        }
        throw error;
      }

      const sentAt = services.now().toISOString();
      await repository.insertRequest({
        ...record,
        status: 'sent',
        state: 'sent',
        error: null,
        sent_at: sentAt,
        expires_at: linkExpiryOf(sentAt),
      });
      return { requestId, recipientEmail: recipient.email, sentAt };
    },

    /**
     * Sends a failed request again under its own id, with its stored subject, message and link;
     * a request already sent is answered as it stands and sends nothing (a Retry is idempotent).
     */
    async resend(
      entityId: string,
      requestId: string,
      context: { log: FastifyBaseLogger; describe?: (detail: Record<string, unknown>) => void },
    ): Promise<ClientUpdateAccepted> {
      if (!(await repository.legalEntityExists(entityId))) throw unknownLegalEntity(entityId);
      const row = await repository.findRequest(entityId, requestId);
      if (!row) throw unknownRequest(requestId);
      if (row.status === 'sent' && row.sent_at) {
        return { requestId, recipientEmail: row.recipient_email, sentAt: row.sent_at };
      }
      if (resending.has(requestId)) {
        throw new ApiError(409, 'This request is being sent again already. Wait for its outcome.');
      }
      const recipient = await repository.findLinkedPerson(entityId, row.recipient_id);
      if (!recipient?.email) {
        throw new ApiError(
          409,
          'The recipient is no longer linked to this legal entity or has no e-mail address. Send a new request.',
        );
      }
      context.describe?.({
        recipientId: recipient.id,
        recipientName: fullName(recipient),
        configId: row.config_id,
        resentRequestId: requestId,
      });
      const email = renderClientUpdateEmail({
        requestId,
        domain: row.domain,
        subject: row.subject,
        message: row.message,
      });
      resending.add(requestId);
      try {
        await sendEmail(requestId, { name: fullName(recipient), address: recipient.email }, email);
      } catch (error) {
        const delivery = error instanceof MailDeliveryError ? error.message : OUTBOX_FAILURE;
        await repository.updateDelivery(requestId, {
          status: 'failed',
          state: 'failed',
          error: delivery,
          sent_at: null,
          expires_at: null,
        });
        context.log.warn(
          { requestId, entityId, via: mailer.via },
          `client update e-mail not delivered again: ${delivery}`,
        );
        if (error instanceof MailDeliveryError) {
          throw new ApiError(502, `The mail server did not accept the message: ${delivery}`);
        }
        throw error;
      } finally {
        resending.delete(requestId);
      }
      const sentAt = services.now().toISOString();
      await repository.updateDelivery(requestId, {
        status: 'sent',
        state: 'sent',
        error: null,
        sent_at: sentAt,
        expires_at: linkExpiryOf(sentAt),
      });
      return { requestId, recipientEmail: recipient.email, sentAt };
    },

    async history(entityId: string): Promise<ClientUpdateRecord[]> {
      if (!(await repository.legalEntityExists(entityId))) throw unknownLegalEntity(entityId);
      const rows = await repository.listRequests(entityId);
      const now = services.now();
      return rows.map((row) => toRecord(row, now));
    },

    /**
     * Closes a submitted response: `reviewed`, with who and when. A request already reviewed is
     * answered as it stands (a second click changes nothing); any other state is 409.
     */
    async markReviewed(
      entityId: string,
      requestId: string,
      context: { reviewedBy: string; describe?: (detail: Record<string, unknown>) => void },
    ): Promise<ClientUpdateRecord> {
      if (!(await repository.legalEntityExists(entityId))) throw unknownLegalEntity(entityId);
      const before = await repository.findRequest(entityId, requestId);
      if (!before) throw unknownRequest(requestId);
      const now = services.now();
      const moved = await repository.markReviewed(requestId, context.reviewedBy, now.toISOString());
      const after = moved ? await repository.findRequest(entityId, requestId) : before;
      if (!after) throw unknownRequest(requestId);
      const record = toRecord(after, now);
      context.describe?.({ requestId, state: record.state, changed: moved });
      if (record.state !== 'reviewed') throw notSubmitted(record.state);
      return record;
    },
  };
}
