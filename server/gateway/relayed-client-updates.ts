import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { notSubmitted, toRecord } from '../client-updates/record.ts';
import { listClientUpdateConfigs } from '../client-updates/service.ts';
import { linkExpiryOf } from '../client-updates/states.ts';
import type { ClientUpdateStore, RelayedAnswer } from '../client-updates/store.ts';
import type { Db } from '../db/database.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../http/errors.ts';
import type { Redactor } from './redaction.ts';
import { apiErrorOf, apiErrorOfSendFailure, readJsonAnswer } from './relay.ts';
import { gatewayRecordsRepository, type RelayedClientUpdateRow } from './repository.ts';
import { UpstreamFailure, type UpstreamClient } from './upstream-client.ts';
import { webhooksRepository } from './webhooks-repository.ts';

export interface RelayedClientUpdatesOptions {
  config: Pick<Config, 'portalDomain' | 'portalLinkDays'> & {
    upstream: { apiKey: string; apiKeyHeader: string };
  };
  db: Db;
  client: UpstreamClient;
  /** Takes the operator's API key out of anything the identity service says. */
  redactor: Redactor;
  now: () => Date;
}

/** A string field of the answer's `data`, when the identity service sent one. */
function dataField(value: unknown, field: string): string | undefined {
  const data = (value as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const text = (data as Record<string, unknown>)[field];
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/** The relayed row under the shared record's names: the gateway knows no display names. */
const recordOf = (row: RelayedClientUpdateRow, now: Date) =>
  toRecord({ ...row, id: row.request_id, requested_by_name: null }, now);

/**
 * Gateway mode's client-update store (docs/gateway.md): the identity service has no endpoints for
 * configurations nor for the history, so both are the gateway's own; request-client-update goes
 * upstream, which sends the e-mail, and its outcome is recorded here.
 */
export function relayedClientUpdateStore(options: RelayedClientUpdatesOptions): ClientUpdateStore {
  const { config, db, client, redactor, now } = options;
  const repository = gatewayRecordsRepository(db);
  const responses = webhooksRepository(db);

  async function askToSend(request: FastifyRequest, entityId: string) {
    // The interface's GET with a JSON body (browsers can only POST it): the body as the caller sent it.
    const body = Buffer.from(JSON.stringify(request.body));
    try {
      const response = await client.send({
        method: 'GET',
        path: `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/request-client-update`,
        headers: {
          accept: 'application/json',
          [config.upstream.apiKeyHeader.toLowerCase()]: config.upstream.apiKey,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
        body: Readable.from([body]),
        bodyLimit: body.length,
      });
      return await readJsonAnswer(response, redactor);
    } catch (error) {
      throw apiErrorOfSendFailure(request, error);
    }
  }

  return {
    listConfigs: () => listClientUpdateConfigs(db, config.portalDomain),

    async history(entityId) {
      const rows = await repository.listRelayedRequests(entityId);
      const at = now();
      return rows.map((row) => recordOf(row, at));
    },

    async requestUpdate(entityId, body, { request, requestedBy, describe }) {
      describe({ recipientId: body.recepientId, configId: body.configId });
      const record = {
        entity_id: entityId,
        recipient_id: body.recepientId,
        config_id: body.configId,
        subject: body.emailSubject,
        domain: body.domain,
        requested_by: requestedBy,
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

      let answer: Awaited<ReturnType<typeof askToSend>>;
      try {
        answer = await askToSend(request, entityId);
      } catch (error) {
        if (error instanceof ApiError && error.statusCode >= 500) await failed(error.message);
        throw error;
      }
      const relayed: RelayedAnswer = { relayed: { status: answer.status, body: answer.value } };
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
        return relayed;
      }
      // A refusal of the request itself (4xx) sent nothing: recorded only when delivery failed.
      if (answer.status >= 500) {
        await failed(answer.message ?? `The identity service failed (status ${answer.status}).`);
      }
      // An error answer as the client sees it: the envelope unchanged, anything else wrapped.
      if (errorEnvelopeSchema.safeParse(answer.value).success) return relayed;
      if (answer.status >= 500) {
        throw apiErrorOf(new UpstreamFailure('unreadable', `status ${answer.status}`));
      }
      throw new ApiError(
        answer.status,
        answer.message ?? `The identity service refused the request (status ${answer.status}).`,
      );
    },

    // As in embedded mode: a submitted response (moved there by a webhook) closed by a reviewer.
    async markReviewed(entityId, requestId, { reviewedBy, describe }) {
      const before = await responses.findRelayedRequest(entityId, requestId);
      if (!before) {
        throw new ApiError(404, `No client-update request ${requestId} for this legal entity.`);
      }
      const at = now();
      const moved = await responses.markReviewed(before.position, reviewedBy, at.toISOString());
      const after =
        (moved ? await responses.findRelayedRequest(entityId, requestId) : before) ?? before;
      const record = recordOf(after, at);
      describe({ requestId, state: record.state, changed: moved });
      if (record.state !== 'reviewed') throw notSubmitted(record.state);
      return record;
    },
  };
}
