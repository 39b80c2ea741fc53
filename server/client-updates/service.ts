import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  ClientUpdateConfig,
  ClientUpdateRecord,
  ClientUpdateRequest,
} from '../../contract/client-updates.ts';
import type { FieldError } from '../../contract/common.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { MailDeliveryError, type Mailer } from '../mail/mailer.ts';
import type { AppServices } from '../services.ts';
import { renderClientUpdateEmail, type RenderedEmail } from './email.ts';
import { clientResponseOf, decideContact } from './portal.ts';
import { newPortalToken } from './portal-token.ts';
import { notSubmitted, toRecord } from './record.ts';
import { linkExpiryOf } from './states.ts';
import type { ClientUpdateAccepted, ClientUpdateStore } from './store.ts';
import {
  clientUpdatesRepository,
  type ClientUpdateRequestRow,
  type LinkedPerson,
} from './repository.ts';

const OUTBOX_FAILURE = 'The message could not be written to the outbox.';
/** An attempt still `sending` after this was cut off (a crash): it no longer blocks a resend. */
const SENDING_ABANDONED_MS = 5 * 60_000;

/** The reminder's subject: the request's own, marked, within the 200 characters a subject may take. */
function reminderSubject(subject: string): string {
  return `Reminder: ${subject}`.slice(0, 200);
}

/** The highest attempt number a caller's check saw; the claim after it fails if another took it. */
function lastAttemptOf(record: ClientUpdateRecord | undefined): number {
  return Math.max(0, ...(record?.attempts ?? []).map((a) => a.attempt));
}

function fullName(person: LinkedPerson): string {
  return [person.firstName, person.middleName, person.lastName]
    .filter((part): part is string => Boolean(part?.trim()))
    .join(' ');
}

function unknownRequest(requestId: string): ApiError {
  return new ApiError(404, `No client-update request ${requestId} for this legal entity.`);
}

/** The configurations, in both modes (the gateway's are set with the admin CLI). */
export async function listClientUpdateConfigs(
  db: Db,
  defaultDomain: string,
): Promise<ClientUpdateConfig[]> {
  const rows = await clientUpdatesRepository(db).listConfigs();
  return rows.map((row) => ({
    configId: row.config_id,
    name: row.name,
    description: row.description,
    defaultSubject: row.default_subject,
    defaultMessage: row.default_message,
    defaultDomain,
  }));
}

/**
 * Embedded mode's store: requests in `client_update_requests`, each e-mail sent by this server
 * (SMTP or the outbox) with a portal link, the client's answers kept here.
 */
export function clientUpdateService(
  services: AppServices,
  mailer: Mailer,
): ClientUpdateStore & { mailedHere: NonNullable<ClientUpdateStore['mailedHere']> } {
  const repository = clientUpdatesRepository(services.db);
  const { reminderAfterDays } = services.config;
  /** Requests with their attempts, as a reader sees them now. */
  const recordsOf = async (rows: readonly ClientUpdateRequestRow[]) => {
    const attempts = await repository.listAttempts(rows.map((row) => row.id));
    const now = services.now();
    return rows.map((row) =>
      toRecord(row, now, {
        attempts: attempts.filter((a) => a.request_id === row.id),
        reminderAfterDays,
      }),
    );
  };
  /**
   * One more e-mail of a recorded request (a resend or a reminder): claims the attempt number
   * first, so a second click racing the first sends nothing, then records the outcome on it.
   */
  const sendAgain = async (
    row: ClientUpdateRequestRow,
    kind: 'resend' | 'reminder',
    context: {
      sentBy: string;
      idempotencyKey: string | null;
      log: FastifyBaseLogger;
      describe?: (detail: Record<string, unknown>) => void;
    },
    afterAttempt: number,
  ): Promise<{ attempt: number; sentAt: string; recipientEmail: string; tokenHash: string }> => {
    const recipient = await repository.findLinkedPerson(row.entity_id, row.recipient_id);
    if (!recipient?.email) {
      throw new ApiError(
        409,
        'The recipient is no longer linked to this legal entity or has no e-mail address. Send a new request.',
      );
    }
    const attempt = await repository.claimAttempt(
      {
        request_id: row.id,
        kind,
        at: services.now().toISOString(),
        sent_by: context.sentBy,
        idempotency_key: context.idempotencyKey,
      },
      afterAttempt,
    );
    if (attempt === undefined) {
      throw new ApiError(409, 'This request is being sent already. Wait for its outcome.');
    }
    context.describe?.({
      recipientId: recipient.id,
      recipientName: fullName(recipient),
      configId: row.config_id,
      attempt,
      ...(kind === 'resend' ? { resentRequestId: row.id } : { remindedRequestId: row.id }),
    });
    // A fresh link: the earlier one's token was never stored, only its hash.
    const { token, tokenHash } = newPortalToken();
    const email = renderClientUpdateEmail({
      token,
      domain: row.domain,
      subject: kind === 'reminder' ? reminderSubject(row.subject) : row.subject,
      message: row.message,
    });
    try {
      await sendEmail(row.id, { name: fullName(recipient), address: recipient.email }, email);
    } catch (error) {
      const delivery = error instanceof MailDeliveryError ? error.message : OUTBOX_FAILURE;
      await repository.finishAttempt(row.id, attempt, {
        outcome: 'failed',
        at: services.now().toISOString(),
        error: delivery,
      });
      if (kind === 'resend') {
        await repository.updateDelivery(row.id, {
          status: 'failed',
          state: 'failed',
          error: delivery,
          sent_at: null,
          expires_at: null,
          token_hash: null,
        });
      }
      context.log.warn(
        { requestId: row.id, entityId: row.entity_id, attempt, kind, via: mailer.via },
        `client update e-mail not delivered again: ${delivery}`,
      );
      if (error instanceof MailDeliveryError) {
        throw new ApiError(502, `The mail server did not accept the message: ${delivery}`);
      }
      throw error;
    }
    const sentAt = services.now().toISOString();
    await repository.finishAttempt(row.id, attempt, { outcome: 'sent', at: sentAt, error: null });
    if (kind === 'reminder') await repository.replaceToken(row.id, tokenHash);
    return { attempt, sentAt, recipientEmail: recipient.email, tokenHash };
  };
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
  /** A recorded request of the legal entity (which the plugin has checked), else 404. */
  const requestOf = async (entityId: string, requestId: string) => {
    const row = await repository.findRequest(entityId, requestId);
    if (!row) throw unknownRequest(requestId);
    return row;
  };

  return {
    listConfigs: () => listClientUpdateConfigs(services.db, services.config.portalDomain),

    /** Sends the e-mail and records the attempt, whether it was delivered or not. */
    async requestUpdate(
      entityId: string,
      body: ClientUpdateRequest,
      context: {
        request: { log: FastifyBaseLogger };
        requestedBy: string;
        /** Names the recipient in the call's audit event, sent or not. */
        describe: (detail: Record<string, unknown>) => void;
      },
    ): Promise<ClientUpdateAccepted> {
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

      context.describe({
        recipientId: recipient.id,
        recipientName: fullName(recipient),
        configId: config.config_id,
      });
      const requestId = randomUUID();
      const createdAt = services.now().toISOString();
      const { token, tokenHash } = newPortalToken();
      const email = renderClientUpdateEmail({
        token,
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
        await repository.insertRequest(
          { ...record, status: 'failed', state: 'failed', error: delivery, sent_at: null },
          { sent_by: context.requestedBy, at: services.now().toISOString() },
        );
        context.request.log.warn(
          { requestId, entityId, via: mailer.via },
          `client update e-mail not delivered: ${delivery}`,
        );
        if (error instanceof MailDeliveryError) {
          throw new ApiError(502, `The mail server did not accept the message: ${delivery}`);
        }
        throw error;
      }

      const sentAt = services.now().toISOString();
      await repository.insertRequest(
        {
          ...record,
          status: 'sent',
          state: 'sent',
          error: null,
          sent_at: sentAt,
          expires_at: linkExpiryOf(sentAt, services.config.portalLinkDays),
          token_hash: tokenHash,
        },
        { sent_by: context.requestedBy, at: sentAt },
      );
      return { requestId, recipientEmail: recipient.email, sentAt };
    },

    async history(entityId: string): Promise<ClientUpdateRecord[]> {
      return recordsOf(await repository.listRequests(entityId));
    },

    /**
     * Closes a submitted response: `reviewed`, with who and when. A request already reviewed is
     * answered as it stands (a second click changes nothing); any other state is 409.
     */
    async markReviewed(
      entityId: string,
      requestId: string,
      context: { reviewedBy: string; describe: (detail: Record<string, unknown>) => void },
    ): Promise<ClientUpdateRecord> {
      const before = await requestOf(entityId, requestId);
      const now = services.now();
      const moved = await repository.markReviewed(requestId, context.reviewedBy, now.toISOString());
      const after = moved ? await repository.findRequest(entityId, requestId) : before;
      if (!after) throw unknownRequest(requestId);
      const [record] = await recordsOf([after]);
      if (!record) throw unknownRequest(requestId);
      context.describe({ requestId, state: record.state, changed: moved });
      if (record.state !== 'reviewed') throw notSubmitted(record.state);
      return record;
    },

    mailedHere: {
      /**
       * Sends a failed request again under its own id, with its stored subject, message and link;
       * a request already sent is answered as it stands and sends nothing (a Retry is idempotent).
       */
      async resend(
        entityId: string,
        requestId: string,
        context: {
          request: { log: FastifyBaseLogger };
          sentBy: string;
          describe: (detail: Record<string, unknown>) => void;
        },
      ): Promise<ClientUpdateAccepted> {
        const row = await requestOf(entityId, requestId);
        if (row.status === 'sent' && row.sent_at) {
          return { requestId, recipientEmail: row.recipient_email, sentAt: row.sent_at };
        }
        // The attempt after the one this check saw: a click racing another's resend sends nothing.
        const [record] = await recordsOf([row]);
        const now = services.now().getTime();
        if (
          record?.attempts?.some(
            (a) => a.outcome === 'sending' && now - Date.parse(a.at) < SENDING_ABANDONED_MS,
          )
        ) {
          throw new ApiError(409, 'This request is being sent already. Wait for its outcome.');
        }
        const sent = await sendAgain(
          row,
          'resend',
          { ...context, log: context.request.log, idempotencyKey: null },
          lastAttemptOf(record),
        );
        await repository.updateDelivery(requestId, {
          status: 'sent',
          state: 'sent',
          error: null,
          sent_at: sent.sentAt,
          expires_at: linkExpiryOf(sent.sentAt, services.config.portalLinkDays),
          token_hash: sent.tokenHash,
        });
        return { requestId, recipientEmail: sent.recipientEmail, sentAt: sent.sentAt };
      },

      /**
       * "Send reminder": the request's e-mail again, its subject marked, to a client who has not
       * answered REMINDER_AFTER_DAYS after the last e-mail. It carries a new link (only the newest works);
       * the expiry stays as it is.
       * The same Idempotency-Key again answers the reminder it sent and sends nothing; before the
       * days have passed (a second click included) it is 409.
       */
      async remind(
        entityId: string,
        requestId: string,
        context: {
          request: { log: FastifyBaseLogger };
          sentBy: string;
          idempotencyKey: string | null;
          describe: (detail: Record<string, unknown>) => void;
        },
      ): Promise<ClientUpdateAccepted> {
        const row = await requestOf(entityId, requestId);
        if (context.idempotencyKey !== null) {
          const earlier = await repository.findAttemptByKey(requestId, context.idempotencyKey);
          if (earlier?.outcome === 'sent') {
            return { requestId, recipientEmail: row.recipient_email, sentAt: earlier.at };
          }
          if (earlier) {
            throw new ApiError(
              409,
              earlier.outcome === 'sending'
                ? 'This reminder is being sent already. Wait for its outcome.'
                : 'This reminder was not delivered; send a new one with a new Idempotency-Key.',
            );
          }
        }
        const [record] = await recordsOf([row]);
        if (!record) throw unknownRequest(requestId);
        if (record.reminderDueAt === null || record.reminderDueAt === undefined) {
          throw new ApiError(
            409,
            `A reminder goes only to a client who has not answered; this request is ${record.state}.`,
          );
        }
        if (Date.parse(record.reminderDueAt) > services.now().getTime()) {
          throw new ApiError(
            409,
            `A reminder can be sent from ${record.reminderDueAt}, ${reminderAfterDays} days after the last e-mail.`,
          );
        }
        const sent = await sendAgain(
          row,
          'reminder',
          { ...context, log: context.request.log },
          lastAttemptOf(record),
        );
        return { requestId, recipientEmail: sent.recipientEmail, sentAt: sent.sentAt };
      },

      response: (entityId, requestId) => clientResponseOf(services, entityId, requestId),
      decideContact: (entityId, requestId, decision, context) =>
        decideContact(services, entityId, requestId, decision, context),
    },
  };
}
