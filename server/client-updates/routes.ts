import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  clientResponseResponseSchema,
  clientUpdateAcceptedResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
  clientUpdateRecordResponseSchema,
  clientUpdateRequestSchema,
  contactDecisionSchema,
} from '../../contract/client-updates.ts';
import { idSchema } from '../../contract/common.ts';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import { requireEntity, type EntitySource } from '../entities/entity-source.ts';
import type { Config } from '../env.ts';
import { parseOrThrow } from '../http/errors.ts';
import { defineRoute } from '../http/route.ts';
import { parseJsonBodyOfGet, requireJsonBody } from '../http/json-body.ts';
import type { ClientUpdateStore } from './store.ts';

const TAG = 'Client updates';
const legalEntityParamsSchema = z.object({ id: idSchema });
const requestParamsSchema = z.object({ id: idSchema, requestId: idSchema });
const idempotencyHeaderSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1, 'Idempotency-Key must not be empty.')
    .max(200, 'Idempotency-Key can be at most 200 characters.')
    .optional(),
});

function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  const parsed = parseOrThrow(idempotencyHeaderSchema, { 'Idempotency-Key': header }, 'header');
  return parsed['Idempotency-Key'] ?? null;
}

export interface ClientUpdatesPluginOptions {
  /** Who knows the legal entities: this database (embedded) or the identity service (gateway). */
  entities: EntitySource;
  /** Where requests are kept and how they go out (store.ts). */
  store: ClientUpdateStore;
  /** The client portal host names a link may point to. */
  portal: Pick<Config, 'portalDomain' | 'portalDomains'>;
}

/**
 * Client-update e-mails (docs/client-updates.md), the same routes in both modes: registered under
 * /api/v2 behind the caller's authentication, by app.ts (embedded) and gateway/routes.ts. Resend,
 * remind and the client's response exist where this server mails the requests itself.
 */
export const clientUpdatesPlugin: FastifyPluginAsync<ClientUpdatesPluginOptions> = async (
  app,
  { entities, store, portal },
) => {
  /** Host names a client-update link may point to: PORTAL_DOMAIN, then PORTAL_DOMAINS. */
  const allowedDomains = [
    ...new Set([portal.portalDomain, ...portal.portalDomains].map((host) => host.toLowerCase())),
  ];
  const allowed = new Set(allowedDomains);
  const requireLegalEntity = (request: FastifyRequest, id: string) =>
    requireEntity(entities, request, id, 'legal');
  // Checked with the body, so a link to another host is 400 before the entity is looked up.
  const requestSchema = clientUpdateRequestSchema.refine((body) => allowed.has(body.domain), {
    path: ['domain'],
    // Only a domain that is a host name is compared; one that is not already has its error.
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'domain'),
    message: `The link can point only to this deployment's client portal: ${allowedDomains.join(', ')}.`,
  });

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/client-update-configs',
      summary: 'List the client-update e-mail configurations',
      description:
        'Each configuration has a default subject and message; `defaultDomain` is the client portal host name of this deployment (PORTAL_DOMAIN). `allowedDomains`, beside `data`, lists every host name `domain` may take: PORTAL_DOMAIN, then PORTAL_DOMAINS.',
      tag: TAG,
      auth: 'caller',
      roles: READERS,
      response: {
        status: 200,
        schema: clientUpdateConfigListResponseSchema,
        description: 'The configurations, by configId',
      },
    },
    async ({ reply }) => {
      const configs = await store.listConfigs();
      await reply.code(200).send({
        code: 200,
        status: 'success',
        message: '',
        data: configs,
        allowedDomains,
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/legal-entities/:id/client-update-requests',
      summary: 'List the client-update requests of a legal entity',
      description:
        'Every request, newest first. `status` is the delivery (`sent` or `failed`); `state` where the request stands: `sent` → `opened` (the client opened the link, `openedAt`) → `submitted` (the client answered, `submittedAt`) → `reviewed` (`reviewedAt`, `reviewedBy`), or `failed` (never delivered) or `expired` (the link lapsed at `expiresAt` unanswered).',
      tag: TAG,
      auth: 'caller',
      roles: READERS,
      params: legalEntityParamsSchema,
      response: {
        status: 200,
        schema: clientUpdateHistoryResponseSchema,
        description: 'The requests, newest first',
      },
      errors: [404],
    },
    async ({ params, request }) => {
      await requireLegalEntity(request, params.id);
      return store.history(params.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/entities/legal-entities/:id/client-update-requests/:requestId/review',
      summary: "Mark a client's response reviewed",
      description:
        'Closes a `submitted` request: its state becomes `reviewed`, with `reviewedAt` and `reviewedBy` (the caller). No body. A request already reviewed is answered as it stands; any other state (`sent`, `opened`, `failed`, `expired`) is 409. Audited as `client-update.review`.',
      tag: TAG,
      auth: 'caller',
      roles: ACTORS,
      params: requestParamsSchema,
      response: {
        status: 200,
        schema: clientUpdateRecordResponseSchema,
        description: 'The request, now reviewed',
      },
      errors: [404, 409],
      audit: {
        action: 'client-update.review',
        targetOf: ({ params }) => ({ entityId: params.id }),
      },
    },
    async ({ params, request, audit }) => {
      await requireLegalEntity(request, params.id);
      return store.markReviewed(params.id, params.requestId, {
        reviewedBy: callerOf(request).username,
        describe: (detail) => audit.describe(detail),
      });
    },
  );

  // Own scope so the JSON-only and GET-body hooks apply to this route alone.
  await app.register((scope, _options, done) => {
    scope.addHook('onRequest', requireJsonBody);
    scope.addHook('preValidation', parseJsonBodyOfGet);
    defineRoute(
      scope,
      {
        method: ['GET', 'POST'],
        url: '/entities/legal-entities/:id/request-client-update',
        summary: 'E-mail a person linked to a legal entity asking for updated information',
        description:
          'GET with a JSON body as the interface specifies, or POST with the same body (browsers cannot send a body with GET). The e-mail links to the client portal, `https://{domain}/portal/{token}` (a fresh 256-bit token per sending, stored hashed, working PORTAL_LINK_DAYS days); `domain` must be PORTAL_DOMAIN or one of PORTAL_DOMAINS (`allowedDomains` of the configurations), compared exactly and case-insensitively, else 400. Sent over SMTP when SMTP_URL is set, otherwise written to DATA_DIR/outbox/{requestId}.eml. Every attempt is recorded; a mail server failure answers 502 and is recorded as `failed`. A recipient without an e-mail address answers 409.',
        tag: TAG,
        auth: 'caller',
        roles: ACTORS,
        params: legalEntityParamsSchema,
        body: requestSchema,
        response: {
          status: 202,
          schema: clientUpdateAcceptedResponseSchema,
          description: 'The e-mail was handed to the mail server (or written to the outbox)',
        },
        errors: [400, 404, 409, 413, 415, 502],
        errorDescriptions: {
          400: 'Also when the recipient is not a natural person linked to this legal entity, configId names no configuration, or domain is not an allowed portal',
        },
        audit: {
          action: 'client-update.request',
          targetOf: ({ params }) => ({ entityId: params.id }),
        },
      },
      async ({ params, body, request, reply, audit }) => {
        await requireLegalEntity(request, params.id);
        const outcome = await store.requestUpdate(params.id, body, {
          request,
          requestedBy: callerOf(request).username,
          describe: (detail) => audit.describe(detail),
        });
        if (!('relayed' in outcome)) return outcome;
        // Gateway mode: the identity service's answer, its status and envelope as they came.
        await reply.code(outcome.relayed.status).send(outcome.relayed.body);
        return undefined;
      },
    );
    done();
  });

  const { mailedHere } = store;
  if (!mailedHere) return;

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/entities/legal-entities/:id/client-update-requests/:requestId/resend',
      summary: 'Send a failed client-update request again',
      description:
        'Sends the recorded request again under its own requestId (same subject, message and link) and records the outcome on it. A request already sent is answered as it stands and sends nothing, so a retry never sends a second e-mail. No body. A mail server failure answers 502 and the request stays `failed` with the new reason.',
      tag: TAG,
      auth: 'caller',
      roles: ACTORS,
      params: requestParamsSchema,
      response: {
        status: 202,
        schema: clientUpdateAcceptedResponseSchema,
        description: 'The e-mail was handed to the mail server (or was sent already)',
      },
      errors: [404, 409, 502],
      audit: {
        action: 'client-update.request',
        targetOf: ({ params }) => ({ entityId: params.id }),
      },
    },
    async ({ params, request, audit }) => {
      await requireLegalEntity(request, params.id);
      return mailedHere.resend(params.id, params.requestId, {
        request,
        sentBy: callerOf(request).username,
        describe: (detail) => audit.describe(detail),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/entities/legal-entities/:id/client-update-requests/:requestId/remind',
      summary: 'Send a reminder for a client-update request with no answer',
      description: `Sends the request's e-mail again, its subject starting "Reminder: ", with a new portal link (the earlier one stops working; the expiry is unchanged), once the request (\`sent\` or \`opened\`) has had no answer for REMINDER_AFTER_DAYS days (default 3) since its last e-mail: \`reminderDueAt\` in the history. Earlier, or in any other state, 409, and nothing is sent. No body. An Idempotency-Key header (at most 200 characters) makes a repeat with the same key answer the reminder it sent and send nothing. Each e-mail is an attempt in the history; a mail server failure answers 502 and is recorded as a failed attempt. Audited as \`client-update.remind\`.`,
      tag: TAG,
      auth: 'caller',
      roles: ACTORS,
      params: requestParamsSchema,
      headers: idempotencyHeaderSchema,
      response: {
        status: 202,
        schema: clientUpdateAcceptedResponseSchema,
        description:
          'The reminder was handed to the mail server (or was sent already under this key)',
      },
      errors: [400, 404, 409, 502],
      errorDescriptions: { 400: 'An empty or too long Idempotency-Key header' },
      audit: {
        action: 'client-update.remind',
        targetOf: ({ params }) => ({ entityId: params.id }),
      },
    },
    async ({ params, request, audit }) => {
      await requireLegalEntity(request, params.id);
      return mailedHere.remind(params.id, params.requestId, {
        request,
        sentBy: callerOf(request).username,
        idempotencyKey: idempotencyKeyOf(request),
        describe: (detail) => audit.describe(detail),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/legal-entities/:id/client-update-requests/:requestId/response',
      summary: "A client's answer to a request",
      description:
        'The documents the client sent (each with `clientRequestId`; accepted or rejected with `PATCH /api/v2/documents/{id}` as any document) and the contact corrections as `{ field, current, proposed }`, `current` being the record now. 404 while the client has not answered.',
      tag: TAG,
      auth: 'caller',
      roles: READERS,
      params: requestParamsSchema,
      response: { status: 200, schema: clientResponseResponseSchema, description: 'The answer' },
      errors: [404],
    },
    ({ params }) => mailedHere.response(params.id, params.requestId),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/entities/legal-entities/:id/client-update-requests/:requestId/response/contact',
      summary: "Apply or dismiss a client's contact corrections",
      description:
        "`{ action: 'apply' | 'dismiss' }`. Apply writes the proposed e-mail, phone and address on the person's record; dismiss leaves the record. Once: a second decision is 409. Audited as `client-update.contact` with each field's old and new value. Not held for a second reviewer: contact details are not a decision under FOUR_EYES.",
      tag: TAG,
      auth: 'caller',
      roles: ACTORS,
      params: requestParamsSchema,
      body: contactDecisionSchema,
      response: {
        status: 200,
        schema: clientResponseResponseSchema,
        description: 'The answer, with the outcome',
      },
      errors: [400, 404, 409],
      audit: {
        action: 'client-update.contact',
        targetOf: ({ params }) => ({ entityId: params.id }),
        writtenByHandler: true,
      },
    },
    ({ params, body, request, audit }) =>
      mailedHere.decideContact(params.id, params.requestId, body, {
        by: callerOf(request).username,
        audit: (transaction, detail) => audit.record({ detail }, transaction),
      }),
  );
};
