import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * One policy for every response. Exceptions to `'self'`, each needed by the built console:
 * - style-src 'unsafe-inline': Mantine writes `<style>` elements at run time (theme variables,
 *   responsive props) whose text changes with the theme and the props, so no hash can match them.
 * - img-src blob: data: the image viewer shows a decoded document from a blob URL; Mantine's
 *   CSS embeds small data: images.
 * - frame-src blob: the PDF viewer shows a decoded document in an iframe from a blob URL.
 */
const CONTENT_SECURITY_POLICY_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'blob:', 'data:'],
  'connect-src': ["'self'"],
  'frame-src': ['blob:'],
  'object-src': ["'none'"],
  'worker-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
};

/** The policy as helmet writes it (directives joined by `;`). */
export const CONTENT_SECURITY_POLICY = Object.entries(CONTENT_SECURITY_POLICY_DIRECTIVES)
  .map(([name, values]) => [name, ...values].join(' '))
  .join(';');

/**
 * What helmet sends on every response that reaches Fastify; written out here as well because
 * the answers Node gives before Fastify sees a request (limits.ts) are written to the socket.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/') || pathname === '/healthz';
}

/**
 * Register before any route: SECURITY_HEADERS on every response, whatever produced it (route,
 * static file, error, 404), written by helmet with only the headers listed there (HSTS is the
 * TLS proxy's, docs/security.md); and `no-store` on API JSON so no cache keeps records or tokens.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  // Built once: @fastify/helmet builds helmet anew for every request (3% of a gateway read's CPU).
  const writeSecurityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(
        Object.entries(CONTENT_SECURITY_POLICY_DIRECTIVES).map(([name, values]) => [
          name,
          [...values],
        ]),
      ),
    },
    xContentTypeOptions: true,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    writeSecurityHeaders(request.raw, reply.raw, () => done());
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const contentType = String(reply.getHeader('content-type') ?? '');
    if (isApiPath(request.url) && contentType.startsWith('application/json')) {
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}

/** No X-API-Key: the API key is for servers, so browsers of other origins may only send a JWT. */
const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';

/** Listed origins only (never `*`), no credentials: the API uses Authorization headers only. */
const CORS_LISTED_ORIGIN: FastifyCorsOptions = {
  methods: 'GET, POST',
  allowedHeaders: CORS_ALLOWED_HEADERS,
  exposedHeaders: 'Retry-After',
  maxAge: 600,
  credentials: false,
};

/**
 * CORS for the exact origins in `origins` (CORS_ORIGINS), nothing when it is empty
 * (@fastify/cors). A listed origin is echoed back and its preflights are answered 204; any other
 * origin, and an OPTIONS without Access-Control-Request-Method, gets no CORS headers and is routed
 * as usual. Every answer varies by Origin.
 */
export async function installCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      const isListed = origin !== undefined && allowed.has(origin);
      const isPreflight =
        request.method === 'OPTIONS' &&
        request.headers['access-control-request-method'] !== undefined;
      callback(null, {
        ...CORS_LISTED_ORIGIN,
        origin: isListed,
        preflight: isPreflight,
      });
    },
  });
}
