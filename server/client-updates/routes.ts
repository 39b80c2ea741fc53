import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  clientUpdateAcceptedResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
  clientUpdateRequestSchema,
} from '../../src/contract/client-updates.ts';
import { idSchema } from '../../src/contract/common.ts';
import { callerOf } from '../auth/caller.ts';
import { defineRoute } from '../http/route.ts';
import { createMailer } from '../mail/mailer.ts';
import type { AppServices } from '../services.ts';
import { parseJsonBodyOfGet, requireJsonBody } from './json-body.ts';
import { clientUpdateService } from './service.ts';

const TAG = 'Client updates';
const legalEntityParamsSchema = z.object({ id: idSchema });

/** Client-update e-mails under /api/v2; the caller is already authenticated by the v2 hook. */
export function registerClientUpdateRoutes(app: FastifyInstance, services: AppServices): void {
  const service = clientUpdateService(services, createMailer(services.config));

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/client-update-configs',
      summary: 'List the client-update e-mail configurations',
      description:
        'Each configuration has a default subject and message; `defaultDomain` is the client portal host name of this deployment (PORTAL_DOMAIN).',
      tag: TAG,
      auth: 'caller',
      response: {
        status: 200,
        schema: clientUpdateConfigListResponseSchema,
        description: 'The configurations, by configId',
      },
    },
    () => service.listConfigs(),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/legal-entities/:id/client-update-requests',
      summary: 'List the client-update requests of a legal entity',
      description: 'Every request, delivered (`sent`) or not (`failed`), newest first.',
      tag: TAG,
      auth: 'caller',
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
          'GET with a JSON body as the interface specifies, or POST with the same body (browsers cannot send a body with GET). The e-mail links to `https://{domain}/client-update/{requestId}`. Sent over SMTP when SMTP_URL is set, otherwise written to DATA_DIR/outbox/{requestId}.eml. Every attempt is recorded; a mail server failure answers 502 and is recorded as `failed`. A recipient without an e-mail address answers 409.',
        tag: TAG,
        auth: 'caller',
        params: legalEntityParamsSchema,
        body: clientUpdateRequestSchema,
        response: {
          status: 202,
          schema: clientUpdateAcceptedResponseSchema,
          description: 'The e-mail was handed to the mail server (or written to the outbox)',
        },
        errors: [400, 404, 409, 413, 415, 502],
      },
      ({ params, body, request }) =>
        service.requestUpdate(params.id, body, {
          requestedBy: callerOf(request).username,
          log: request.log,
        }),
    );
    done();
  });
}
