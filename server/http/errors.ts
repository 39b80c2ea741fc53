import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorEnvelope, FieldError } from '../../src/contract/common.ts';

/** The one error type handlers throw; the error handler turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorEnvelope(code: number, message: string, errors?: FieldError[]): ErrorEnvelope {
  return { code, status: 'error', message, data: [], ...(errors?.length ? { errors } : {}) };
}

/**
 * Field errors of a failed zod parse, with dotted paths (`corporateInformation.country`); an
 * unknown key is reported on itself, an error about the whole input on `rootField`.
 */
export function fieldErrorsOf(error: z.ZodError, rootField = 'body'): FieldError[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: issue.message }));
    }
    return [{ field: path.join('.') || rootField, message: issue.message }];
  });
}

/** Parses `value` or throws a 400 ApiError whose message names the first bad field. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: 'parameter' | 'path parameter' | 'field' | 'header',
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const rootField = what === 'field' ? 'body' : 'query';
  const errors = fieldErrorsOf(result.error, rootField);
  const first = errors[0];
  const message =
    first && first.field !== rootField
      ? `Invalid ${what} ${first.field}: ${first.message}`
      : `Invalid request: ${first?.message ?? 'malformed'}`;
  throw new ApiError(400, message, errors);
}

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The JSON body is empty.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length header does not match the body.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The body is not valid JSON.'],
};

function sendError(reply: FastifyReply, code: number, message: string, errors?: FieldError[]) {
  return reply
    .code(code)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(code, message, errors));
}

/** Every error anywhere becomes the envelope; 500s log their detail and say nothing more. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendError(reply, error.statusCode, error.message, error.fieldErrors);
    }
    const known = FASTIFY_CODES[String((error as { code?: unknown }).code)];
    if (known) return sendError(reply, known[0], known[1]);
    const code: unknown = (error as { code?: unknown }).code;
    if (
      error instanceof SyntaxError ||
      (typeof code === 'string' && code.startsWith('FST_ERR_CTP'))
    ) {
      return sendError(reply, 400, 'The request body could not be read.');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, status, error.message);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'Something went wrong on the server. The error has been logged.');
  });
}

/** The 404 envelope for an unknown path. */
export function sendPathNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(
    reply,
    404,
    `No such path: ${request.method} ${request.url.split('?')[0] ?? ''}.`,
  );
}
