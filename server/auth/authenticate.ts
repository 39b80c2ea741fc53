import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { ApiError } from '../http/errors.ts';
import type { AppServices } from '../services.ts';
import { accountsRepository } from './accounts-repository.ts';
import type { Caller } from './caller.ts';
import { constantTimeEqual, hashApiKey } from './secrets.ts';
import { verifyToken } from './tokens.ts';

export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** onRequest hook for /api/v2: a Bearer JWT or an `X-API-Key`; anything else is 401. */
export function authenticateCaller(services: AppServices): onRequestAsyncHookHandler {
  const accounts = accountsRepository(services.db);
  return async (request) => {
    request.caller = await identify(request);
  };

  async function identify(request: FastifyRequest): Promise<Caller> {
    const token = bearerTokenOf(request);
    if (token) {
      const verified = await verifyToken(services, token);
      if (!verified) throw new ApiError(401, 'The token is invalid or has expired. Sign in again.');
      const { account } = verified;
      return {
        accountId: account.id,
        username: account.username,
        role: account.role,
        via: 'token',
        entityDataVersion: String(account.entity_data_version),
      };
    }
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey !== '') {
      const hash = hashApiKey(apiKey);
      const account = await accounts.findByApiKeyHash(hash);
      if (
        !account ||
        account.disabled ||
        !account.api_key_hash ||
        !constantTimeEqual(account.api_key_hash, hash)
      ) {
        throw new ApiError(401, 'The API key is invalid.');
      }
      return {
        accountId: account.id,
        username: account.username,
        role: account.role,
        via: 'apiKey',
        entityDataVersion: String(account.entity_data_version),
      };
    }
    throw new ApiError(401, 'Authentication required: send a Bearer token or an X-API-Key header.');
  }
}
