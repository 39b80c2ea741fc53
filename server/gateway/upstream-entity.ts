import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import type { Redactor } from './redaction.ts';
import { apiErrorOf, apiErrorOfSendFailure, readJsonAnswer } from './relay.ts';
import { UpstreamFailure, type UpstreamClient } from './upstream-client.ts';

export interface UpstreamEntityOptions {
  upstream: { apiKey: string; apiKeyHeader: string };
  client: UpstreamClient;
  redactor: Redactor;
}

/**
 * What the gateway's own records of an entity (notes, assignment) check first: that the identity
 * service knows the id, as a legal entity or as a natural person; 404 otherwise.
 */
export function upstreamEntityCheck({ upstream, client, redactor }: UpstreamEntityOptions) {
  async function entityExistsUpstream(request: FastifyRequest, id: string): Promise<boolean> {
    for (const collection of ['legal-entities', 'natural-persons']) {
      let status: number;
      try {
        const response = await client.send({
          method: 'GET',
          path: `/api/v2/entities/${collection}/${encodeURIComponent(id)}`,
          headers: {
            accept: 'application/json',
            [upstream.apiKeyHeader.toLowerCase()]: upstream.apiKey,
          },
        });
        status = (await readJsonAnswer(response, redactor)).status;
      } catch (error) {
        throw apiErrorOfSendFailure(request, error);
      }
      if (status >= 200 && status < 300) return true;
      if (status !== 404) {
        throw apiErrorOf(new UpstreamFailure('unreadable', `entity check answered ${status}`));
      }
    }
    return false;
  }

  return async function requireEntity(request: FastifyRequest, id: string): Promise<void> {
    if (!(await entityExistsUpstream(request, id))) {
      throw new ApiError(404, `No entity has the id ${id}.`);
    }
  };
}
