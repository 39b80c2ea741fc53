import crypto from 'node:crypto';
import { ACTORS, requireRole } from '../auth/caller.ts';
import { Readable } from 'node:stream';
import { actorOf, requestPartOf } from '../audit/audit-trail.ts';
import { markRecorded } from '../audit/refusals.ts';
import { notSubmitted } from '../client-updates/service.ts';
import { linkExpiryOf, stateAt } from '../client-updates/states.ts';
import { webhooksRepository } from './webhooks-repository.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  clientUpdateRequestSchema,
  type ClientUpdateConfig,
  type ClientUpdateRecord,
} from '../../contract/client-updates.ts';
import { errorEnvelopeSchema, idSchema } from '../../contract/common.ts';
import { parseJsonBodyOfGet, requireJsonBody } from '../http/json-body.ts';
import type { Db } from '../db/database.ts';
import type { Config } from '../env.ts';
import { ApiError, parseOrThrow } from '../http/errors.ts';
import { guardLocalRoutes } from './local-route-guard.ts';
import type { Redactor } from './redaction.ts';
import { apiErrorOf, apiErrorOfSendFailure, readJsonAnswer } from './relay.ts';
import { gatewayRecordsRepository, type RelayedClientUpdateRow } from './repository.ts';
import { UpstreamFailure, type UpstreamClient } from './upstream-client.ts';

export interface LocalClientUpdatesOptions {
  config: Pick<Config, 'portalDomain' | 'portalDomains' | 'portalLinkDays'> & {
    upstream: { apiKey: string; apiKeyHeader: string };
  };
  db: Db;
  client: UpstreamClient;
  /** Takes the operator's API key out of anything the identity service says. */
  redactor: Redactor;
  /** The gateway's own check of the caller's JWT, exactly as for forwarded routes. */
  requireValidToken: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  now: () => Date;
}

const legalEntityParamsSchema = z.object({ id: idSchema });
const requestParamsSchema = z.object({ id: idSchema, requestId: idSchema });

/** What the identity service answered, read whole. */
interface UpstreamAnswer {
  status: number;
  value: unknown;
  message: string | undefined;
}

function toRecord(row: RelayedClientUpdateRow, now: Date): ClientUpdateRecord {
  return {
    requestId: row.request_id,
    entityId: row.entity_id,
    recipientId: row.recipient_id,
    recipientEmail: row.recipient_email,
    configId: row.config_id,
    subject: row.subject,
    domain: row.domain,
    status: row.status,
    error: row.error,
    requestedBy: row.requested_by,
    // The identity service keeps the accounts; the gateway knows only the username.
    requestedByName: null,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    state: stateAt(row.state, row.expires_at, now),
    // The identity service reports no link opening; a webhook moves a request to submitted.
    openedAt: row.opened_at,
    submittedAt: row.submitted_at,
    reviewedAt: row.reviewed_at,
    reviewedBy: row.reviewed_by,
    expiresAt: row.expires_at,
  };
}

/** A string field of the answer's `data`, when the identity service sent one. */
function dataField(value: unknown, field: string): string | undefined {
  const data = (value as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const text = (data as Record<string, unknown>)[field];
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/**
 * The client-update configurations and request history, which the identity service has no
 * endpoints for, answered from the gateway's own database (decisions.md "Reading the real
 * service"); request-client-update still goes upstream, and its outcome is recorded here.
 */
export function registerLocalClientUpdates(
  app: FastifyInstance,
  options: LocalClientUpdatesOptions,
): void {
  const { config, db, client, redactor, requireValidToken, now } = options;
  const repository = gatewayRecordsRepository(db);
  const responses = webhooksRepository(db);
  const allowedDomains = [
    ...new Set([config.portalDomain, ...config.portalDomains].map((host) => host.toLowerCase())),
  ];
  const allowed = new Set(allowedDomains);
  const requestSchema = clientUpdateRequestSchema.refine((body) => allowed.has(body.domain), {
    path: ['domain'],
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'domain'),
    message: `The link can point only to this deployment's client portal: ${allowedDomains.join(', ')}.`,
  });

  async function ask(
    request: FastifyRequest,
    method: string,
    path: string,
    body?: Buffer,
  ): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [config.upstream.apiKeyHeader.toLowerCase()]: config.upstream.apiKey,
    };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    try {
      const response = await client.send({
        method,
        path,
        headers,
        ...(body ? { body: Readable.from([body]), bodyLimit: body.length } : {}),
      });
      return await readJsonAnswer(response, redactor);
    } catch (error) {
      throw apiErrorOfSendFailure(request, error);
    }
  }

  /** An error answer as the client sees it: the envelope unchanged, anything else wrapped. */
  function sendError(reply: FastifyReply, answer: UpstreamAnswer): FastifyReply {
    if (errorEnvelopeSchema.safeParse(answer.value).success) {
      return reply.code(answer.status).send(answer.value);
    }
    if (answer.status >= 500) {
      throw apiErrorOf(new UpstreamFailure('unreadable', `status ${answer.status}`));
    }
    throw new ApiError(
      answer.status,
      answer.message ?? `The identity service refused the request (status ${answer.status}).`,
    );
  }

  const legalEntityPath = (id: string) =>
    `/api/v2/entities/legal-entities/${encodeURIComponent(id)}`;

  void app.register((scope, _options, done) => {
    guardLocalRoutes(scope, requireValidToken);

    scope.get('/api/v2/client-update-configs', async () => {
      const rows = await repository.listConfigs();
      const data: ClientUpdateConfig[] = rows.map((row) => ({
        configId: row.config_id,
        name: row.name,
        description: row.description,
        defaultSubject: row.default_subject,
        defaultMessage: row.default_message,
        defaultDomain: config.portalDomain,
      }));
      return { code: 200, status: 'success', message: '', data, allowedDomains };
    });

    scope.get(
      '/api/v2/entities/legal-entities/:id/client-update-requests',
      async (request, reply) => {
        const { id } = parseOrThrow(legalEntityParamsSchema, request.params, 'path parameter');
        // The entity lives upstream: an unknown one is 404 there, as in embedded mode.
        const answer = await ask(request, 'GET', legalEntityPath(id));
        if (answer.status === 404) {
          throw new ApiError(404, `No legal entity with id ${id}.`);
        }
        if (answer.status < 200 || answer.status >= 300) return sendError(reply, answer);
        const rows = await repository.listRelayedRequests(id);
        const at = now();
        return {
          code: 200,
          status: 'success',
          message: '',
          data: rows.map((row) => toRecord(row, at)),
        };
      },
    );

    // As in embedded mode (client-updates/routes.ts): a submitted response closed by a reviewer.
    scope.post(
      '/api/v2/entities/legal-entities/:id/client-update-requests/:requestId/review',
      { config: { refusalAction: 'client-update.review' } },
      async (request) => {
        requireRole(request, ACTORS);
        const { id, requestId } = parseOrThrow(
          requestParamsSchema,
          request.params,
          'path parameter',
        );
        const before = await responses.findRelayedRequest(id, requestId);
        if (!before) {
          throw new ApiError(404, `No client-update request ${requestId} for this legal entity.`);
        }
        const at = now();
        const reviewer = actorOf(request);
        const moved = await responses.markReviewed(before.position, reviewer, at.toISOString());
        const after =
          (moved ? await responses.findRelayedRequest(id, requestId) : before) ?? before;
        const record = toRecord(after, at);
        // A 409 is recorded by refusal-audit.ts, as every refused control is.
        if (record.state !== 'reviewed') throw notSubmitted(record.state);
        await app.auditTrail.record({
          ...requestPartOf(request),
          action: 'client-update.review',
          entityId: id,
          detail: { requestId, state: record.state, changed: moved },
        });
        markRecorded(request);
        return { code: 200, status: 'success', message: '', data: record };
      },
    );

    // Own scope so the JSON-only and GET-body hooks apply to this route alone.
    void scope.register((jsonScope, _jsonOptions, jsonDone) => {
      jsonScope.addHook('onRequest', requireJsonBody);
      jsonScope.addHook('preValidation', parseJsonBodyOfGet);
      jsonScope.route({
        method: ['GET', 'POST'],
        url: '/api/v2/entities/legal-entities/:id/request-client-update',
        config: { refusalAction: 'client-update.request' },
        handler: async (request, reply) => {
          requireRole(request, ACTORS);
          const { id } = parseOrThrow(legalEntityParamsSchema, request.params, 'path parameter');
          // Checked here first, so a refused body is 400 and neither forwarded nor recorded.
          const body = parseOrThrow(requestSchema, request.body ?? {}, 'field');
          const record = {
            entity_id: id,
            recipient_id: body.recepientId,
            config_id: body.configId,
            subject: body.emailSubject,
            domain: body.domain,
            // The reviewer bound to the caller's token at sign-in (routes.ts).
            requested_by: actorOf(request),
            created_at: now().toISOString(),
          };
          const failed = (error: string) =>
            repository.insertRelayedRequest({
              ...record,
              request_id: crypto.randomUUID(),
              recipient_email: '',
              status: 'failed',
              state: 'failed',
              error,
              sent_at: null,
            });

          let answer: UpstreamAnswer;
          try {
            // The interface's GET with a JSON body (browsers can only POST it).
            answer = await ask(
              request,
              'GET',
              `${legalEntityPath(id)}/request-client-update`,
              Buffer.from(JSON.stringify(request.body)),
            );
          } catch (error) {
            if (error instanceof ApiError && error.statusCode >= 500) await failed(error.message);
            throw error;
          }
          if (answer.status >= 200 && answer.status < 300) {
            const sentAt = dataField(answer.value, 'sentAt') ?? now().toISOString();
            await repository.insertRelayedRequest({
              ...record,
              request_id: dataField(answer.value, 'requestId') ?? crypto.randomUUID(),
              recipient_email: dataField(answer.value, 'recipientEmail') ?? '',
              status: 'sent',
              state: 'sent',
              error: null,
              sent_at: sentAt,
              expires_at: linkExpiryOf(sentAt, config.portalLinkDays),
            });
            return reply.code(answer.status).send(answer.value);
          }
          // A refusal of the request itself (4xx) sent nothing: recorded only when delivery failed.
          if (answer.status >= 500) {
            await failed(
              answer.message ?? `The identity service failed (status ${answer.status}).`,
            );
          }
          return sendError(reply, answer);
        },
      });
      jsonDone();
    });
    done();
  });
}
