import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { normaliseTimestamp } from '../../contract/normalise.ts';
import type { Db } from '../db/database.ts';
import { ApiError, parseOrThrow } from '../http/errors.ts';
import { markRecorded } from '../audit/refusals.ts';
import { webhooksRepository } from './webhooks-repository.ts';

export const WEBHOOK_PATH = '/api/webhooks/kyc';
/** Events older (or further ahead) than this by their creationTimeUtc are refused: no replays. */
export const WEBHOOK_MAX_AGE_MS = 5 * 60_000;
/** An event is a small JSON object; its documents, if any, are not kept. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;
/** The actor of what a webhook changes, in the audit trail. */
export const WEBHOOK_ACTOR = 'webhook:kyc';

/** The real service's event (vendor.md): `data` is its own and read only for the entity it names. */
const webhookEventSchema = z.object({
  id: z.string().trim().min(1).max(200),
  event: z.string().trim().min(1).max(200),
  eventType: z.string().trim().min(1).max(200),
  data: z.unknown(),
  creationTimeUtc: z.string().trim().min(1).max(40),
});

export interface WebhookOptions {
  /** WEBHOOK_SECRET, then WEBHOOK_SECRET_PREVIOUS during a rotation. */
  secrets: string[];
  db: Db;
  now: () => Date;
}

const UNAUTHENTICATED =
  'The webhook is not authenticated: send X-Webhook-Signature: sha256=<HMAC-SHA256 of the body> or X-Webhook-Secret.';

/** Equal by content, in time independent of where they differ (both are hashed to one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/** True when a header proves the sender holds one of the secrets. */
export function isAuthentic(
  body: Buffer,
  headers: FastifyRequest['headers'],
  secrets: readonly string[],
): boolean {
  const signature = headers['x-webhook-signature'];
  if (typeof signature === 'string') {
    const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
    if (!match?.[1]) return false;
    const given = Buffer.from(match[1].toLowerCase(), 'hex');
    // Every secret is tried, so the answer takes as long whichever one matches.
    let valid = false;
    for (const secret of secrets) {
      const expected = crypto.createHmac('sha256', secret).update(body).digest();
      valid = crypto.timingSafeEqual(given, expected) || valid;
    }
    return valid;
  }
  const secret = headers['x-webhook-secret'];
  if (typeof secret === 'string') {
    let valid = false;
    for (const expected of secrets) valid = sameSecret(secret, expected) || valid;
    return valid;
  }
  return false;
}

/** creationTimeUtc as an instant: ISO 8601, or the service's zone-less form read as UTC. */
function instantOf(text: string): number {
  const normalised = normaliseTimestamp(text) ?? text;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(normalised)
    ? `${normalised.replace(' ', 'T')}Z`
    : normalised;
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(iso) ? iso : `${iso}Z`;
  return Date.parse(zoned);
}

/** The entity an event names, in any of the spellings the service uses for an entity's id. */
export function entityIdOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  const meta: unknown = record.kycMetaData;
  for (const candidate of [
    record.entityId,
    record.entityID,
    record.legalEntityId,
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>).entityID
      : undefined,
  ]) {
    if (typeof candidate === 'string' && candidate.trim() !== '' && candidate.length <= 100) {
      return candidate.trim();
    }
  }
  return undefined;
}

/**
 * `POST /api/webhooks/kyc`, gateway mode, only when WEBHOOK_SECRET is set (decisions.md "Client
 * responses"): each event stored once by id, stale ones refused, and an event naming an entity
 * with an open request moves that request to `submitted`; each one in the entity's activity.
 */
export function registerWebhooks(app: FastifyInstance, options: WebhookOptions): void {
  const { secrets, db, now } = options;
  if (secrets.length === 0) return;

  void app.register((scope, _options, done) => {
    // The signature is over the bytes as sent, so the body is kept raw and parsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, parsed) => {
        parsed(null, body);
      },
    );
    scope.post(
      WEBHOOK_PATH,
      { bodyLimit: WEBHOOK_BODY_LIMIT, config: { refusalAction: 'webhook.receive' } },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!isAuthentic(body, request.headers, secrets)) throw new ApiError(401, UNAUTHENTICATED);
        let json: unknown;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          throw new ApiError(400, 'The webhook body must be a JSON object.');
        }
        const event = parseOrThrow(webhookEventSchema, json, 'field');
        const created = instantOf(event.creationTimeUtc);
        if (Number.isNaN(created)) {
          throw new ApiError(400, 'creationTimeUtc must be a date and time (UTC).', [
            { field: 'creationTimeUtc', message: 'Not a date and time.' },
          ]);
        }
        const receivedAt = now();
        if (Math.abs(receivedAt.getTime() - created) > WEBHOOK_MAX_AGE_MS) {
          throw new ApiError(
            400,
            'The event is more than 5 minutes away from this server’s clock and is refused (a replay, or clocks apart).',
            [{ field: 'creationTimeUtc', message: 'Older than 5 minutes.' }],
          );
        }
        const entityId = entityIdOf(event.data) ?? null;
        const at = receivedAt.toISOString();
        // A retry of a stored event is answered without queueing for the write lock.
        const known = await webhooksRepository(db).isStored(event.id);
        // One transaction, under the write lock both engines take: stored, moved and audited once.
        const outcome = known
          ? { stored: false, submittedRequestId: null }
          : await db.transaction().execute(async (trx) => {
              const repository = webhooksRepository(trx);
              const open = entityId ? await repository.openRequestOf(entityId, at) : undefined;
              const stored = await repository.storeEvent({
                event_id: event.id,
                event: event.event,
                event_type: event.eventType,
                entity_id: entityId,
                created_at: event.creationTimeUtc,
                received_at: at,
                request_id: open?.request_id ?? null,
              });
              if (!stored) return { stored: false, submittedRequestId: null };
              const moved = open ? await repository.markSubmitted(open.position, at) : false;
              const submittedRequestId = moved && open ? open.request_id : null;
              const common = {
                actor: WEBHOOK_ACTOR,
                entityId,
                requestId: request.id,
                clientAddress: request.ip,
              };
              await app.auditTrail.recordIn(trx, {
                ...common,
                action: 'webhook.receive',
                detail: { eventId: event.id, event: event.event, eventType: event.eventType },
              });
              if (submittedRequestId) {
                await app.auditTrail.recordIn(trx, {
                  ...common,
                  action: 'client-update.submit',
                  detail: { requestId: submittedRequestId, eventId: event.id, via: 'webhook' },
                });
              }
              return { stored: true, submittedRequestId };
            });
        markRecorded(request);
        return {
          code: 200,
          status: 'success',
          message: outcome.stored ? '' : 'This event was received before; nothing changed.',
          data: { eventId: event.id, ...outcome },
        };
      },
    );
    done();
  });
}
