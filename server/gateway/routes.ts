import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestPartOf } from '../audit/audit-trail.ts';
import { markRecorded, outcomeOfStatus, refusalDetailOf } from '../audit/refusals.ts';
import { installGatewayRefusalAudit } from './refusal-audit.ts';
import { auditPlugin } from '../audit/routes.ts';
import { capabilitiesPlugin } from '../capabilities/routes.ts';
import { reviewersRepository } from './reviewers-repository.ts';
import { decodeJwt } from 'jose';
import { bearerTokenOf } from '../auth/authenticate.ts';
import { ACTORS, callerOf, requireRole, type Caller } from '../auth/caller.ts';
import { signOutRequestSchema } from '../../contract/auth.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { DEVICE_COOKIE_PREFIX } from '../auth/device-cookie.ts';
import { CREATE_BODY_LIMIT } from '../entities/routes.ts';
import type { Db } from '../db/database.ts';
import type { Config } from '../env.ts';
import { readWithinLimit } from '../http/body-limit.ts';
import { ApiError, parseOrThrow, sendPathNotFound } from '../http/errors.ts';
import { registerOpenApiRoutes } from '../http/openapi.ts';
import { declareForwardedRoutes } from './api-document.ts';
import { isOriginForm, v2TargetOf } from './forward-target.ts';
import { guardLocalRoutes } from './local-route-guard.ts';
import { createRedactor } from './redaction.ts';
import { clientUpdatesPlugin } from '../client-updates/routes.ts';
import { requireEntity } from '../entities/entity-source.ts';
import { notesPlugin } from '../notes/routes.ts';
import { relayedClientUpdateStore } from './relayed-client-updates.ts';
import { upstreamEntitySource } from './upstream-entity.ts';
import { assignmentPlugin } from '../assignment/routes.ts';
import { registerWebhooks } from './webhooks.ts';
import { apiErrorOf, apiErrorOfSendFailure, readJsonAnswer, refusalOf, relay } from './relay.ts';
import { tokenHashOf, ValidTokenCache, type TokenHolder } from './token-cache.ts';
import {
  createUpstreamClient,
  UpstreamFailure,
  type UpstreamRequest,
  type UpstreamResponse,
} from './upstream-client.ts';

export type UpstreamConfig = NonNullable<Config['upstream']>;

/** Request headers passed on, per kind of endpoint; everything else (other cookies, keys) stays here. */
const SIGN_IN_HEADERS = ['accept', 'content-type', 'content-length'];
const TOKEN_CHECK_HEADERS = ['accept', 'authorization'];
const ENTITY_HEADERS = ['accept', 'content-type', 'content-length', 'idempotency-key'];

/** Methods that only read; any other forwarded call is a write, which auditors may not make. */
const READ_METHODS = new Set(['GET', 'HEAD']);

const INVALID_TOKEN = 'The token is invalid or has expired. Sign in again.';

/** A sign-in form is two short fields; anything larger is refused before it is read. */
const SIGN_IN_BODY_LIMIT = 64 * 1024;
/** How long a binding lasts when neither the answer nor the JWT says when the token expires. */
const DEFAULT_BINDING_MS = 24 * 60 * 60 * 1000;

/** Everything gateway mode adds to the app: health, the API reference and the forwarding routes. */
export async function registerGateway(
  app: FastifyInstance,
  config: Config & { upstream: UpstreamConfig },
  now: () => Date,
  db: Db,
): Promise<void> {
  await declareForwardedRoutes(app, config, db);
  registerOpenApiRoutes(app);
  registerGatewayRoutes(app, config, now, db);
}

/**
 * Gateway mode: its own records only for client updates, notes and assignments, served by the
 * embedded server's own plugins over the gateway's tables, the entities asked of the identity
 * service. Sign-in and token checks go to the identity service as they are; other /api/v2 calls go
 * there with the operator's API key once the caller's JWT checks out.
 */
function registerGatewayRoutes(
  app: FastifyInstance,
  config: Config & { upstream: UpstreamConfig },
  now: () => Date,
  db: Db,
): void {
  const { upstream } = config;
  const client = createUpstreamClient(upstream);
  const validTokens = new ValidTokenCache(now);
  const redactor = createRedactor(upstream.apiKey);
  const reviewers = reviewersRepository(db);
  app.addHook('onClose', () => {
    client.close();
  });
  installGatewayRefusalAudit(app);

  async function exchange(
    request: FastifyRequest,
    reply: FastifyReply,
    target: Omit<UpstreamRequest, 'abandonOn' | 'body' | 'bodyLimit'>,
    /** true: stream the request's body; a Buffer: send these bytes (already read). */
    forwardBody: boolean | Buffer,
  ): Promise<UpstreamResponse> {
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    const hasBody =
      Buffer.isBuffer(forwardBody) ||
      (forwardBody &&
        (request.headers['transfer-encoding'] !== undefined ||
          (request.headers['content-length'] !== undefined && declaredLength > 0)));
    const headers = { ...target.headers };
    if (hasBody && headers['content-length'] === undefined)
      headers['transfer-encoding'] = 'chunked';
    try {
      return await client.send({
        ...target,
        headers,
        abandonOn: (abandon) => {
          reply.raw.once('close', () => {
            if (!reply.raw.writableFinished) abandon();
          });
        },
        ...(hasBody
          ? {
              body: Buffer.isBuffer(forwardBody) ? Readable.from([forwardBody]) : request.raw,
              bodyLimit: CREATE_BODY_LIMIT,
            }
          : {}),
      });
    } catch (error) {
      throw apiErrorOfSendFailure(request, error);
    }
  }

  /** Whom the caller's token names, from a recent confirmation or a new one (refused: 401). */
  async function holderOfToken(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
  ): Promise<TokenHolder> {
    const hash = tokenHashOf(token);
    return validTokens.holderOf(hash) ?? (await confirmToken(request, reply, token, hash));
  }

  /** Asks the identity service whether the caller's JWT is valid; remembers whom it names. */
  async function confirmToken(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    hash: string,
  ): Promise<TokenHolder> {
    const response = await exchange(
      request,
      reply,
      {
        method: 'GET',
        path: '/api/tokenvalid',
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      },
      false,
    );
    const answer = await readJsonAnswer(response, redactor);
    const isValid =
      answer.status === 200 &&
      (answer.value as { isTokenValid?: unknown } | null)?.isTokenValid === true;
    if (isValid && (await reviewers.isRevoked(hash, now().getTime()))) {
      throw new ApiError(401, INVALID_TOKEN);
    }
    if (isValid) {
      const bound = await reviewers.reviewerOf(hash, now().getTime());
      const holder = bound
        ? { username: bound, bound: true }
        : { username: unboundNameOf(token, hash), bound: false };
      validTokens.remember(hash, expiryOf(answer.value, token), holder);
      return holder;
    }
    if (answer.status === 200 || answer.status === 401 || answer.status === 403) {
      throw new ApiError(401, INVALID_TOKEN);
    }
    if (answer.status >= 400 && answer.status < 500) {
      throw new ApiError(answer.status, answer.message ?? INVALID_TOKEN);
    }
    throw apiErrorOf(new UpstreamFailure('unreadable', `token check answered ${answer.status}`));
  }

  // A scope of its own: bodies are not parsed here but streamed to the identity service.
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, parsed) => {
      parsed(null);
    });

    // An absolute URL (`GET http://host/…`) is never passed on; only a plain path is served.
    scope.addHook('onRequest', (request, _reply, done) => {
      const refusal = isOriginForm(request.url)
        ? undefined
        : new ApiError(400, 'The request target must be a path such as /api/v2/entities.');
      done(refusal);
    });

    // Refused on the declared length before anything else, as the embedded server does.
    scope.addHook('onRequest', (request, _reply, done) => {
      const tooLarge = Number(request.headers['content-length'] ?? 0) > CREATE_BODY_LIMIT;
      done(tooLarge ? new ApiError(413, 'The request body is too large.') : undefined);
    });

    // The form is read here (it is small) to learn who signs in: their token is bound to them.
    scope.post('/api/gettoken', async (request, reply) => {
      const form = await bodyOf(request, SIGN_IN_BODY_LIMIT);
      const username = usernameOfForm(form, request.headers['content-type'] ?? '');
      const headers = pick(request, SIGN_IN_HEADERS);
      headers['content-length'] = String(form.length);
      const deviceCookies = deviceCookiesOf(request.headers.cookie);
      if (deviceCookies !== '') headers.cookie = deviceCookies;
      const response = await exchange(
        request,
        reply,
        { method: 'POST', path: '/api/gettoken', headers },
        form,
      );
      // The identity service's device cookie (docs/auth.md) reaches the browser, and only it.
      for (const line of [response.headers['set-cookie'] ?? []].flat()) {
        if (line.startsWith(DEVICE_COOKIE_PREFIX)) void reply.header('set-cookie', line);
      }
      const answer = await readJsonAnswer(response, redactor);
      const token = (answer.value as { token?: unknown } | null)?.token;
      const signedIn = answer.status === 200 && typeof token === 'string' && token !== '';
      if (signedIn) {
        const nowMs = now().getTime();
        const expiresAtMs = expiryOf(answer.value, token) ?? nowMs + DEFAULT_BINDING_MS;
        await reviewers.bindToken(tokenHashOf(token), username, expiresAtMs, nowMs);
      }
      await app.auditTrail.record({
        ...requestPartOf(request),
        actor: username,
        action: signedIn ? 'auth.sign-in' : 'auth.sign-in-failed',
        // As in embedded mode: a wrong password fails, too many attempts are denied.
        outcome: signedIn ? 'success' : answer.status === 429 ? 'denied' : 'failure',
        detail: signedIn
          ? {}
          : {
              status: answer.status,
              ...(answer.status === 429 ? { reason: 'too-many-attempts' } : {}),
            },
      });
      reply.header('Cache-Control', 'no-store');
      if (signedIn || errorEnvelopeSchema.safeParse(answer.value).success) {
        const retryAfter = response.headers['retry-after'];
        if (typeof retryAfter === 'string') reply.header('Retry-After', redactor.text(retryAfter));
        return reply.code(answer.status).send(answer.value);
      }
      throw refusalOf(
        response,
        answer.value,
        redactor,
        'The identity service refused the sign-in.',
      );
    });

    // Signed out here: the identity service has no sign-out, so the gateway refuses the token
    // until it expires, on every instance (docs/gateway.md).
    scope.post(
      '/api/signout',
      { config: { refusalAction: 'auth.sign-out' } },
      async (request, reply) => {
        const token = bearerTokenOf(request);
        if (!token) throw new ApiError(401, 'Send the token in an Authorization: Bearer header.');
        const holder = await holderOfToken(request, reply, token);
        const { everywhere } = parseOrThrow(
          signOutRequestSchema,
          jsonOf(await bodyOf(request, SIGN_IN_BODY_LIMIT)),
          'field',
        );
        const hash = tokenHashOf(token);
        const nowMs = now().getTime();
        const revoked = everywhere ? await reviewers.revokeAllOf(holder.username, nowMs) : [];
        await reviewers.revokeToken(
          hash,
          expiryOf(null, token) ?? nowMs + DEFAULT_BINDING_MS,
          nowMs,
        );
        for (const tokenHash of new Set([hash, ...revoked])) validTokens.forget(tokenHash);
        const revokedSessions = new Set([hash, ...revoked]).size;
        await app.auditTrail.record({
          ...requestPartOf(request),
          actor: holder.username,
          action: 'auth.sign-out',
          detail: { everywhere, revokedSessions },
        });
        reply.header('Cache-Control', 'no-store');
        return { code: 200, status: 'success', message: '', data: { revokedSessions } };
      },
    );

    scope.get('/api/tokenvalid', async (request, reply) => {
      const token = bearerTokenOf(request);
      if (token && (await reviewers.isRevoked(tokenHashOf(token), now().getTime()))) {
        throw new ApiError(401, INVALID_TOKEN);
      }
      return relay(
        reply,
        await exchange(
          request,
          reply,
          {
            method: 'GET',
            path: '/api/tokenvalid',
            headers: pick(request, TOKEN_CHECK_HEADERS),
          },
          false,
        ),
        redactor,
      );
    });

    // 401 without a token, then 404 for anything off the allow-list, before the upstream is asked.
    scope.all('/api/v2/*', { bodyLimit: CREATE_BODY_LIMIT }, async (request, reply) => {
      const token = bearerTokenOf(request);
      if (!token) {
        throw new ApiError(401, 'Authentication required: sign in and send the Bearer token.');
      }
      const target = v2TargetOf(request.method, request.url);
      if (!target) return sendPathNotFound(request, reply);
      const holder = await holderOfToken(request, reply, token);
      request.reviewer = holder.username;
      // The service sees one API key for everyone, so the gateway keeps auditors from writing.
      if (!READ_METHODS.has(request.method)) {
        const caller = await callerOfHolder(holder);
        // Its refusal is recorded by refusal-audit.ts, as every refused write is.
        requireRole({ caller }, ACTORS);
      }
      const headers = pick(request, ENTITY_HEADERS);
      headers[upstream.apiKeyHeader.toLowerCase()] = upstream.apiKey;
      const response = await exchange(request, reply, { ...target, headers }, true);
      try {
        // Before the answer's first byte, as in embedded mode: an unrecordable read is a 500.
        await app.auditTrail.record({
          ...requestPartOf(request),
          ...target.audit,
          outcome: outcomeOfStatus(response.status),
          ...(response.status >= 400 ? { detail: refusalDetailOf(response.status) } : {}),
        });
        markRecorded(request);
      } catch (error) {
        response.body.destroy();
        throw error;
      }
      return relay(reply, response, redactor);
    });
    done();
  });
  /** The caller a token's holder is, with the role the operator gives them now. */
  async function callerOfHolder(holder: TokenHolder): Promise<Caller> {
    return {
      accountId: '',
      username: holder.username,
      role: await reviewers.roleOf(holder.username),
      via: 'token',
    };
  }

  /** The gateway's own routes: the caller's token, and the role the operator gives them now. */
  const requireCallerToken = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerTokenOf(request);
    if (!token) {
      throw new ApiError(401, 'Authentication required: sign in and send the Bearer token.');
    }
    request.caller = await callerOfHolder(await holderOfToken(request, reply, token));
  };

  // The audit trail and the capabilities are the gateway's own, behind the caller's token.
  void app.register(
    (local, _options, done) => {
      local.addHook('onRequest', requireCallerToken);
      void local.register(auditPlugin, { db });
      done();
    },
    { prefix: '/api/v2' },
  );
  void app.register(
    (local, _options, done) => {
      local.addHook('onRequest', requireCallerToken);
      void local.register(capabilitiesPlugin, {
        config,
        whoIs: (request) => {
          const { username, role } = callerOf(request);
          return Promise.resolve({ username, role });
        },
      });
      done();
    },
    { prefix: '/api' },
  );
  registerWebhooks(app, { secrets: config.webhookSecrets, db, now });
  // Client updates, notes and assignment: the embedded routes over the gateway's own tables, of
  // entities the identity service knows.
  const entities = upstreamEntitySource({ upstream, client, redactor });
  void app.register(
    (local, _options, done) => {
      guardLocalRoutes(local, requireCallerToken);
      void local.register(clientUpdatesPlugin, {
        entities,
        store: relayedClientUpdateStore({ config, db, client, redactor, now }),
        portal: config,
      });
      void local.register(assignmentPlugin, {
        services: { db },
        gateway: { requireEntity: (request, id) => requireEntity(entities, request, id) },
      });
      void local.register(notesPlugin, { entities, db, table: 'gateway_notes', now });
      done();
    },
    { prefix: '/api/v2' },
  );
}

/** Only the device cookies of a Cookie header (`name=value; …`); '' when it has none. */
function deviceCookiesOf(header: string | undefined): string {
  return (header ?? '')
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(DEVICE_COOKIE_PREFIX))
    .join('; ');
}

function pick(request: FastifyRequest, names: string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = request.headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

/** When a confirmation must lapse at the latest: the answer's expiresAt or the JWT's own exp. */
function expiryOf(answer: unknown, token: string): number | undefined {
  const candidates: number[] = [];
  const expiresAt = (answer as { expiresAt?: unknown } | null)?.expiresAt;
  if (typeof expiresAt === 'string' && !Number.isNaN(Date.parse(expiresAt))) {
    candidates.push(Date.parse(expiresAt));
  }
  try {
    const { exp } = decodeJwt(token);
    if (typeof exp === 'number') candidates.push(exp * 1000);
  } catch {
    // Not a JWT the gateway can read: the upstream's answer alone decides.
  }
  return candidates.length > 0 ? Math.min(...candidates) : undefined;
}

/** The request's body, at most `limit` bytes (413 beyond). */
function bodyOf(request: FastifyRequest, limit: number): Promise<Buffer> {
  return readWithinLimit(
    request.raw,
    limit,
    () => new ApiError(413, 'The request body is too large.'),
  );
}

/** A small JSON body, `{}` when empty; 400 when it is not JSON. */
function jsonOf(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError(400, 'The body is not valid JSON.');
  }
}

/** `Username` (or `username`) of a urlencoded or multipart sign-in form; '' when absent. */
function usernameOfForm(form: Buffer, contentType: string): string {
  const text = form.toString('utf8');
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    const fields = new URLSearchParams(text);
    return (fields.get('Username') ?? fields.get('username') ?? '').trim().slice(0, 100);
  }
  const part = /name="(?:Username|username)"\r\n(?:[^\r\n]+\r\n)*\r\n([^\r\n]*)\r\n/.exec(text);
  return (part?.[1] ?? '').trim().slice(0, 100);
}

/** A token not bound here: the reviewer its JWT names (`name`, else `sub`), else a fingerprint. */
function unboundNameOf(token: string, hash: string): string {
  try {
    const { name, sub } = decodeJwt(token);
    if (typeof name === 'string' && name.trim() !== '') return name;
    if (typeof sub === 'string' && sub.trim() !== '') return sub;
  } catch {
    // Not a JWT the gateway can read: the identity service accepted it, the name stays unknown.
  }
  return `session-${hash.slice(0, 12)}`;
}
