import cookie from '@fastify/cookie';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import {
  credentialsSchema,
  signOutRequestSchema,
  signOutResponseSchema,
  tokenResponseSchema,
  tokenValidResponseSchema,
} from '../../contract/auth.ts';
import { ApiError } from '../http/errors.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { accountsRepository } from './accounts-repository.ts';
import { bearerTokenOf } from './authenticate.ts';
import { deviceCookieSecret, deviceNonceOf, setDeviceCookie } from './device-cookie.ts';
import { signInLimiter } from './sign-in-limiter.ts';
import { generatePassword, hashPassword, verifyPassword } from './secrets.ts';
import { issueToken, verifyToken } from './tokens.ts';

const FORM_MEDIA_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** One message for an unknown user, a wrong password and a disabled account alike. */
const INVALID_CREDENTIALS = 'The username or password is incorrect, or the account is disabled.';

export interface AuthPluginOptions {
  services: AppServices;
}

/** POST /api/gettoken and GET /api/tokenvalid; both answer bare objects, errors as the envelope. */
export const authPlugin: FastifyPluginCallback<AuthPluginOptions> = (app, { services }, done) => {
  const accounts = accountsRepository(services.db);
  const limiter = signInLimiter(services.db, services.now);
  // Unknown users are checked against this hash so they take as long as known ones.
  const unknownUserHash = hashPassword(generatePassword());

  // A scope of its own, so these hooks run for the sign-in route only.
  void app.register(async (scope) => {
    // Only the sign-in route reads cookies: the device cookie (docs/security.md).
    await scope.register(cookie, { secret: deviceCookieSecret(services.signingKey) });
    // Before the body is parsed, so a JSON body is refused as 415 rather than read.
    scope.addHook('onRequest', (request, _reply, done) => {
      done(unsupportedMediaTypeOf(request));
    });
    scope.addHook('preValidation', (request, _reply, done) => {
      request.body = canonicalCredentials(request.body);
      done();
    });

    defineRoute(
      scope,
      {
        method: 'POST',
        url: '/gettoken',
        summary: 'Sign in: exchange a username and password for a JWT',
        description:
          'Form fields `Username` and `Password` (lower-case names accepted too), sent as ' +
          '`multipart/form-data` or `application/x-www-form-urlencoded`. The JWT (HS256) is valid ' +
          'for TOKEN_TTL_SECONDS (default 1200). Failed sign-ins are limited per username and per ' +
          'client address, and apart from these for a browser that has signed in to the account ' +
          'before (it holds a signed device cookie, set here); over a limit the answer is 429 ' +
          'with `Retry-After`.',
        tag: 'Authentication',
        auth: 'none',
        body: credentialsSchema,
        bodyMediaTypes: FORM_MEDIA_TYPES,
        bare: true,
        response: { status: 200, schema: tokenResponseSchema, description: 'A new JWT' },
        errors: [400, 401, 415, 429],
        // Each attempt records its own outcome: auth.sign-in, or auth.sign-in-failed.
        audit: { action: 'auth.sign-in', writtenByHandler: true },
      },
      async ({ body, request, reply, audit }) => {
        const start = await limiter.begin({
          username: body.Username,
          address: request.ip,
          deviceNonce: deviceNonceOf(request, body.Username),
        });
        // The name as typed: a failed attempt's actor is whoever was claimed.
        const claimed = { actor: body.Username };
        if (!start.allowed) {
          await audit.record({
            ...claimed,
            action: 'auth.sign-in-failed',
            outcome: 'denied',
            detail: { reason: 'too-many-attempts' },
          });
          throw new ApiError(
            429,
            `Too many failed sign-ins. Try again in ${start.retryAfterSeconds} seconds.`,
            [],
            { 'Retry-After': String(start.retryAfterSeconds) },
          );
        }
        const account = await accounts.findByUsername(body.Username);
        const passwordMatches = await verifyPassword(
          body.Password,
          account?.password_hash ?? (await unknownUserHash),
        );
        if (!account || account.disabled || !passwordMatches) {
          await limiter.failed(start.attemptId);
          await audit.record({ ...claimed, action: 'auth.sign-in-failed', outcome: 'failure' });
          throw new ApiError(401, INVALID_CREDENTIALS);
        }
        await limiter.succeeded(start.attemptId);
        await audit.record({ actor: account.username });
        setDeviceCookie(reply, account.username);
        reply.header('Cache-Control', 'no-store');
        return issueToken(services, account);
      },
    );
  });

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/tokenvalid',
      summary: 'Check that a JWT is valid and not expired',
      description: 'Send the token as `Authorization: Bearer <JWT>`.',
      tag: 'Authentication',
      auth: 'token',
      bare: true,
      response: {
        status: 200,
        schema: tokenValidResponseSchema,
        description: 'The token is valid; `expiresAt` says until when',
      },
    },
    async ({ request, reply }) => {
      const token = bearerTokenOf(request);
      if (!token) throw new ApiError(401, 'Send the token in an Authorization: Bearer header.');
      const verified = await verifyToken(services, token);
      if (!verified) throw new ApiError(401, 'The token is invalid or has expired. Sign in again.');
      reply.header('Cache-Control', 'no-store');
      return { isTokenValid: true, expiresAt: verified.expiresAt };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/signout',
      summary: 'Sign out: end this token’s session, or every session of the account',
      description:
        'Send the token as `Authorization: Bearer <JWT>`; an optional JSON body ' +
        '`{ "everywhere": true }` ends every session of the account. A signed-out token is 401 ' +
        'on every instance from the next request on, `/api/tokenvalid` included.',
      tag: 'Authentication',
      auth: 'token',
      body: signOutRequestSchema,
      response: {
        status: 200,
        schema: signOutResponseSchema,
        description: 'How many sessions ended',
      },
      errors: [400, 401, 415],
      audit: { action: 'auth.sign-out', writtenByHandler: true },
    },
    async ({ body, request, audit }) => {
      const token = bearerTokenOf(request);
      if (!token) throw new ApiError(401, 'Send the token in an Authorization: Bearer header.');
      const verified = await verifyToken(services, token);
      if (!verified) throw new ApiError(401, 'The token is invalid or has expired. Sign in again.');
      const { account, jti } = verified;
      const revokedSessions = body.everywhere
        ? await accounts.deleteSessionsOf(account.id)
        : await accounts.deleteSession(jti);
      await audit.record({
        actor: account.username,
        detail: { everywhere: body.everywhere, revokedSessions },
      });
      return { revokedSessions };
    },
  );
  done();
};

/** A 415 unless the body is one of the form encodings. */
function unsupportedMediaTypeOf(request: FastifyRequest): ApiError | undefined {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType && FORM_MEDIA_TYPES.includes(mediaType)) return undefined;
  return new ApiError(
    415,
    'Send the credentials as multipart/form-data or application/x-www-form-urlencoded.',
  );
}

/** `Username`/`Password` from either spelling; an absent field becomes '' so the 400 names it. */
function canonicalCredentials(body: unknown): { Username: unknown; Password: unknown } {
  const fields: Record<string, unknown> =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return {
    Username: fields.Username ?? fields.username ?? '',
    Password: fields.Password ?? fields.password ?? '',
  };
}
