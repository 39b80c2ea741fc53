import type { FastifyRequest } from 'fastify';
import type { EntityKind, EntitySource } from '../entities/entity-source.ts';
import type { Redactor } from './redaction.ts';
import { apiErrorOf, apiErrorOfSendFailure, readJsonAnswer } from './relay.ts';
import { UpstreamFailure, type UpstreamClient } from './upstream-client.ts';

export interface UpstreamEntityOptions {
  upstream: { apiKey: string; apiKeyHeader: string };
  client: UpstreamClient;
  redactor: Redactor;
}

const COLLECTIONS: Record<EntityKind, string> = {
  legal: 'legal-entities',
  person: 'natural-persons',
};

/**
 * Gateway mode's EntitySource: the identity service knows the id when it answers 2xx for it as a
 * legal entity or as a natural person; 404 there is "no"; anything else is the service failing.
 */
export function upstreamEntitySource({
  upstream,
  client,
  redactor,
}: UpstreamEntityOptions): EntitySource {
  async function existsIn(request: FastifyRequest, collection: string, id: string) {
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
    return false;
  }

  return {
    async exists(request, id, kind) {
      const kinds: EntityKind[] = kind ? [kind] : ['legal', 'person'];
      for (const each of kinds) {
        if (await existsIn(request, COLLECTIONS[each], id)) return true;
      }
      return false;
    },
  };
}
