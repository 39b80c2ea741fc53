import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  portalReceiptResponseSchema,
  portalSubmissionSchema,
} from '../../contract/client-updates.ts';
import { ApiError } from '../http/errors.ts';
import { requireJsonBody } from '../http/json-body.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import {
  PORTAL_CSS,
  PORTAL_CONTENT_SECURITY_POLICY,
  PORTAL_SCRIPT,
  linkGonePage,
  portalPage,
} from './portal-page.ts';
import { portalLimiter } from './portal-limiter.ts';
import { PORTAL_TOKEN_PATTERN, hashPortalToken } from './portal-token.ts';
import { portalService } from './portal.ts';

/** Base64 documents of up to 10 MB each, at most 64 MB in all (as onboarding's create). */
export const PORTAL_BODY_LIMIT = 64 * 1024 * 1024;

const TAG = 'Client updates';
const tokenParamsSchema = z.object({ token: z.string().max(100) });

function portalHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', PORTAL_CONTENT_SECURITY_POLICY)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer');
}

/** The origins a portal page is served from: the request's own, or an allowed portal host. */
function isOwnOrigin(request: FastifyRequest, portalHosts: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    if (url.host === request.host) return true;
    return url.protocol === 'https:' && url.port === '' && portalHosts.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Embedded mode's client portal (docs/client-updates.md "Client portal"): the public page, its
 * assets and the one submission, outside every authenticated scope; nothing here accepts a session.
 */
export function registerPortalRoutes(app: FastifyInstance, services: AppServices): void {
  const service = portalService(services, app.auditTrail);
  const limiter = portalLimiter(services.now);
  const portalHosts = new Set(
    [services.config.portalDomain, ...services.config.portalDomains].map((host) =>
      host.toLowerCase(),
    ),
  );
  const limit = (request: FastifyRequest, token: string) => {
    const wait = limiter.hit(hashPortalToken(token), request.ip);
    if (wait !== undefined) {
      throw new ApiError(
        429,
        'Too many attempts with this link. Wait a few minutes and try again.',
        [],
        {
          'Retry-After': String(wait),
        },
      );
    }
  };

  app.get('/portal-assets/portal.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(PORTAL_SCRIPT),
  );
  app.get('/portal-assets/portal.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'no-cache').send(PORTAL_CSS),
  );

  app.get<{ Params: { token: string } }>('/portal/:token', async (request, reply) => {
    const token = request.params.token;
    limit(request, token);
    const view = await service.open(token, { requestId: request.id, clientAddress: request.ip });
    portalHeaders(reply).type('text/html; charset=utf-8');
    return view ? reply.code(200).send(portalPage(view)) : reply.code(404).send(linkGonePage());
  });

  void app.register((scope, _options, done) => {
    scope.addHook('onRequest', requireJsonBody);
    // Before the body is read: another origin, a missing nonce or too many calls store nothing.
    scope.addHook(
      'onRequest',
      (request: FastifyRequest<{ Params: { token?: string } }>, _reply, done) => {
        const token = request.params.token ?? '';
        try {
          // No link has this shape: answered as a used or expired one, before any other check.
          if (!PORTAL_TOKEN_PATTERN.test(token)) {
            throw new ApiError(404, 'This link does not work (any more).');
          }
          if (!isOwnOrigin(request, portalHosts)) {
            throw new ApiError(403, 'This answer must be sent from the portal page itself.');
          }
          limit(request, token);
          const nonce = request.headers['x-portal-nonce'];
          if (!service.nonceMatches(token, typeof nonce === 'string' ? nonce : undefined)) {
            throw new ApiError(
              403,
              'This answer must be sent from the portal page: open the link from your e-mail again.',
            );
          }
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    );
    defineRoute(
      scope,
      {
        method: 'POST',
        url: '/api/portal/:token',
        summary: "The client's answer through the portal",
        description:
          "Public: the token of the e-mail's link is the only credential, with the page's nonce in `X-Portal-Nonce` and, from a browser, an `Origin` of this server or a portal host. Body `{ documents: [{ fileName, type, file }], contact?: { email?, phone?, address? } }` (at least one document or correction; documents as onboarding's: the bytes decide, PDF/JPEG/PNG/TIFF/WebP/HEIC, 10 MB each). Once per link: the request becomes `submitted`, the documents join the legal entity marked as the client's (`clientRequestId`), undecided. A wrong, used or expired link is 404 alike; rate-limited per link and per address (429).",
        tag: TAG,
        auth: 'none',
        params: tokenParamsSchema,
        body: portalSubmissionSchema,
        bodyLimit: PORTAL_BODY_LIMIT,
        response: {
          status: 201,
          schema: portalReceiptResponseSchema,
          description: 'The answer was stored',
        },
        errors: [400, 403, 404, 413, 415, 429],
      },
      ({ params, body, request }) =>
        service.submit(params.token, body, { requestId: request.id, clientAddress: request.ip }),
    );
    done();
  });
}
