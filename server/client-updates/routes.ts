import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  clientUpdateAcceptedResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
  clientUpdateRecordResponseSchema,
  clientUpdateRequestSchema,
} from '../../contract/client-updates.ts';
import { idSchema } from '../../contract/common.ts';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import { defineRoute } from '../http/route.ts';
import { createMailer } from '../mail/mailer.ts';
import type { AppServices } from '../services.ts';
import { parseJsonBodyOfGet, requireJsonBody } from '../http/json-body.ts';
import { clientUpdateService } from './service.ts';

const TAG = 'Client updates';
const legalEntityParamsSchema = z.object({ id: idSchema });
const requestParamsSchema = z.object({ id: idSchema, requestId: idSchema });

/** Client-update e-mails under /api/v2; the caller is already authenticated by the v2 hook. */
export function registerClientUpdateRoutes(app: FastifyInstance, services: AppServices): void {
  const service = clientUpdateService(services, createMailer(services.config));
  const allowed = new Set(service.allowedDomains);
  // Checked with the body, so a link to another host is 400 before the entity is looked up.
  const requestSchema = clientUpdateRequestSchema.refine((body) => allowed.has(body.domain), {
    path: ['domain'],
    // Only a domain that is a host name is compared; one that is not already has its error.
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'domain'),
    message: `The link can point only to this deployment's client portal: ${service.allowedDomains.join(', ')}.`,
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
      const configs = await service.listConfigs();
      await reply.code(200).send({
        code: 200,
        status: 'success',
        message: '',
        data: configs,
        allowedDomains: service.allowedDomains,
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
    ({ params }) => service.history(params.id),
  );

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
    ({ params, request, audit }) =>
      service.resend(params.id, params.requestId, {
        log: request.log,
        describe: (detail) => audit.describe(detail),
      }),
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
    ({ params, request, audit }) =>
      service.markReviewed(params.id, params.requestId, {
        reviewedBy: callerOf(request).username,
        describe: (detail) => audit.describe(detail),
      }),
  );

  // Own scope so the JSON-only and GET-body hooks apply to this route alone.
  void app.register((scope, _options, done) => {
    scope.addHook('onRequest', requireJsonBody);
    scope.addHook('preValidation', parseJsonBodyOfGet);
    defineRoute(
      scope,
      {
        method: ['GET', 'POST'],
        url: '/entities/legal-entities/:id/request-client-update',
        summary: 'E-mail a person linked to a legal entity asking for updated information',
        description:
          'GET with a JSON body as the interface specifies, or POST with the same body (browsers cannot send a body with GET). The e-mail links to `https://{domain}/client-update/{requestId}`; `domain` must be PORTAL_DOMAIN or one of PORTAL_DOMAINS (`allowedDomains` of the configurations), compared exactly and case-insensitively, else 400. Sent over SMTP when SMTP_URL is set, otherwise written to DATA_DIR/outbox/{requestId}.eml. Every attempt is recorded; a mail server failure answers 502 and is recorded as `failed`. A recipient without an e-mail address answers 409.',
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
      ({ params, body, request, audit }) =>
        service.requestUpdate(params.id, body, {
          requestedBy: callerOf(request).username,
          log: request.log,
          describe: (detail) => audit.describe(detail),
        }),
    );
    done();
  });
}
