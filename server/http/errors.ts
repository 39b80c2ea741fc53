import http from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorEnvelope, FieldError } from '../../contract/common.ts';
import {
  databaseFaultOf,
  RETRY_AFTER_SECONDS,
  type DatabaseHealth,
} from '../db/database-faults.ts';

/** The one error type handlers throw; the error handler turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    /** The envelope's `data`: what a client needs to act on the error (the existing entity of a 409). */
    readonly data: unknown[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorEnvelope(
  code: number,
  message: string,
  errors?: FieldError[],
  { data = [], retryAfter }: { data?: unknown[]; retryAfter?: number } = {},
): ErrorEnvelope {
  return {
    code,
    status: 'error',
    message,
    data,
    ...(errors?.length ? { errors } : {}),
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
}

export const STORAGE_FULL_MESSAGE = "The server's storage is full. Try again once space is freed.";

export const UNAVAILABLE_MESSAGE =
  'The service is unavailable: its database does not answer. Try again shortly.';

/** What a zod issue says, as zod reports it or as the type provider passes it on. */
interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
}

/**
 * Field errors of a failed zod parse, with dotted paths (`corporateInformation.country`); an
 * unknown key is reported on itself, an error about the whole input on `rootField`.
 */
export function fieldErrorsOf(issues: readonly Issue[], rootField = 'body'): FieldError[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return (issue.keys ?? []).map((key) => ({
        field: [...path, key].join('.'),
        message: issue.message,
      }));
    }
    return [{ field: path.join('.') || rootField, message: issue.message }];
  });
}

/** Where a value that failed its schema came from, as its 400 names it. */
export type InvalidPart = 'parameter' | 'path parameter' | 'field' | 'header';

/** The 400 of a value that failed its schema: its message names the first bad field. */
export function badRequestOf(issues: readonly Issue[], what: InvalidPart): ApiError {
  const rootField = what === 'field' ? 'body' : 'query';
  const errors = fieldErrorsOf(issues, rootField);
  const first = errors[0];
  const message =
    first && first.field !== rootField
      ? `Invalid ${what} ${first.field}: ${first.message}`
      : `Invalid request: ${first?.message ?? 'malformed'}`;
  return new ApiError(400, message, errors);
}

/** Parses `value` or throws a 400 ApiError whose message names the first bad field. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: InvalidPart,
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequestOf(result.error.issues, what);
}

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The JSON body is empty.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length header does not match the body.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The body is not valid JSON.'],
};

function sendError(
  reply: FastifyReply,
  code: number,
  message: string,
  errors?: FieldError[],
  data?: unknown[],
) {
  return reply
    .code(code)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(code, message, errors, { data }));
}

const SERVER_ERROR_MESSAGE = 'Something went wrong on the server. The error has been logged.';

/** Requests whose 5xx is already logged with its error, so the answer's own line is not repeated. */
const loggedServerErrors = new WeakSet<FastifyRequest>();

/** A 5xx whose cause is logged elsewhere (the database's health, once per change of state). */
export function markServerErrorLogged(request: FastifyRequest): void {
  loggedServerErrors.add(request);
}

function logServerError(request: FastifyRequest, error: unknown): void {
  loggedServerErrors.add(request);
  request.log.error({ err: error }, 'unhandled error');
}

/** Messages of the errors Fastify raises before any route runs (Fastify's own echo the URL). */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The request path is not valid percent-encoding.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long.',
};

/**
 * Fastify's `frameworkErrors`: errors raised before routing (a bad URL, a parameter the router
 * refuses, a failing constraint) become their 4xx in the envelope, and any 5xx is logged here
 * with its request id, as no error handler or hook runs for them.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message =
      FRAMEWORK_MESSAGES[error.code] ?? `${http.STATUS_CODES[status] ?? 'Bad request'}.`;
    void sendError(reply, status, message);
    return;
  }
  logServerError(request, error);
  void sendError(reply, 500, SERVER_ERROR_MESSAGE);
}

/**
 * Every error anywhere becomes the envelope; 500s log their detail and say nothing more; every
 * other 5xx (a 503, an upstream's 502 or relayed 500) is logged at error level when it is sent.
 * A full storage (507) or an unreachable database (503 with Retry-After) is logged by `health`,
 * once per change of state, not once per request.
 */
export function installErrorHandling(app: FastifyInstance, health?: DatabaseHealth): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 500 && !loggedServerErrors.has(request)) {
      request.log.error({ statusCode: reply.statusCode }, 'answered with a server error');
    }
    done();
  });
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendError(reply, error.statusCode, error.message, error.fieldErrors, error.data);
    }
    const known = FASTIFY_CODES[String((error as { code?: unknown }).code)];
    if (known) return sendError(reply, known[0], known[1]);
    // A client that hung up (ECONNRESET on its own socket) is no database fault.
    const fault = request.raw.socket.destroyed ? undefined : databaseFaultOf(error);
    if (fault) {
      loggedServerErrors.add(request);
      // Errors met outside the database layer (a file write) reach the health log only here.
      health?.failed(fault, error);
      if (fault === 'storage-full') return sendError(reply, 507, STORAGE_FULL_MESSAGE);
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return reply
        .code(503)
        .type('application/json; charset=utf-8')
        .send(
          errorEnvelope(503, UNAVAILABLE_MESSAGE, undefined, { retryAfter: RETRY_AFTER_SECONDS }),
        );
    }
    const code: unknown = (error as { code?: unknown }).code;
    if (
      error instanceof SyntaxError ||
      (typeof code === 'string' && code.startsWith('FST_ERR_CTP'))
    ) {
      return sendError(reply, 400, 'The request body could not be read.');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, status, error.message);
    logServerError(request, error);
    return sendError(reply, 500, SERVER_ERROR_MESSAGE);
  });
}

/** Characters of an unknown path its 404 repeats: an id thousands of characters long is cut. */
const SHOWN_PATH_LENGTH = 200;

/** The 404 envelope for an unknown path; 405 with `Allow` when the path takes other methods. */
export function sendPathNotFound(request: FastifyRequest, reply: FastifyReply) {
  const pathname = request.url.split('?')[0] ?? '';
  const shown =
    pathname.length > SHOWN_PATH_LENGTH ? `${pathname.slice(0, SHOWN_PATH_LENGTH)}…` : pathname;
  const allowed = request.server.allowedMethodsOf(pathname);
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    reply.header('Allow', allowed.join(', '));
    return sendError(
      reply,
      405,
      `${request.method} is not allowed on ${shown}: use ${allowed.join(', ')}.`,
    );
  }
  return sendError(reply, 404, `No such path: ${request.method} ${shown}.`);
}
