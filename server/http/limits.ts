import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { ApiError, errorEnvelope } from './errors.ts';
import { SECURITY_HEADERS } from './security.ts';

/** Bodies nested deeper than this (objects and arrays) are refused before any handler sees them. */
export const MAX_JSON_DEPTH = 32;

/** Node refuses larger request heads with 431; a JWT plus the usual headers needs about 2 KB. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The whole request head must arrive within this (slowloris). */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * Body limits by route for routes that declare none (the create route declares its own 64 MB):
 * sign-in carries two short fields; a client-update body is at most about 10,000 characters.
 */
export const ROUTE_BODY_LIMITS: Readonly<Record<string, number>> = {
  '/api/gettoken': 16 * 1024,
  '/api/v2/entities/legal-entities/:id/request-client-update': 64 * 1024,
};

/**
 * Server options against slow or oversized clients: the head within HEADERS_TIMEOUT_MS, the
 * whole request within two minutes (a 64 MB create on a slow link), an idle socket closed after
 * 30 s, an idle keep-alive connection after 5 s; Node checks these every second.
 */
export const serverLimitOptions = {
  connectionTimeout: 30_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  http: {
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: 1_000,
  },
  clientErrorHandler: answerClientError,
  // The router's own limit (100) answered a long id with a framework error; a parameter as long as
  // the head allows reaches its route instead, which answers 404 like any unknown id.
  routerOptions: { maxParamLength: MAX_HEADER_BYTES },
} satisfies FastifyHttpOptions<http.Server>;

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/** Errors Node raises before Fastify sees a request (bad HTTP, head too large, too slow). */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is malformed.'];
  if (socket.writable) {
    const body = JSON.stringify(errorEnvelope(status, message));
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n${head}\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** True when `value` has objects or arrays nested deeper than `maxDepth`; stops as soon as it knows. */
export function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, depth } = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
  return false;
}

/** The 400 of a body nested too deep to parse safely; undefined when it is not. */
export function deepBodyError(body: unknown): ApiError | undefined {
  return isNestedDeeperThan(body, MAX_JSON_DEPTH)
    ? new ApiError(400, `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`)
    : undefined;
}

/**
 * Hooks on the root instance (register before any route): per-route body limits, a declared
 * Content-Length over the limit refused before reading (multipart reads its own stream), and
 * the JSON depth check after every body parser (including the GET-with-body route's) has run.
 */
export function installRequestLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const limit = ROUTE_BODY_LIMITS[route.url];
    if (limit !== undefined && route.bodyLimit === undefined) route.bodyLimit = limit;
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const declared = Number(request.headers['content-length']);
    if (declared > request.routeOptions.bodyLimit) {
      done(new ApiError(413, 'The request body is too large.'));
      return;
    }
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    done(deepBodyError(request.body));
  });
}
