import { errorCodes, type FastifyRequest } from 'fastify';
import { readWithinLimit } from './body-limit.ts';
import { ApiError } from './errors.ts';
import { refuseNul, requireUtf8 } from './json-parser.ts';

function hasBody(request: FastifyRequest): boolean {
  const contentLength = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined ||
    (contentLength !== undefined && contentLength !== '0')
  );
}

function mediaTypeOf(request: FastifyRequest): string | undefined {
  return request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
}

const NOT_JSON = 'Unsupported content type: send the request body as application/json.';

/** The one JSON-only rule: a body must be declared application/json; no body passes unless required. */
function refuseUnlessJson(request: FastifyRequest, bodyRequired: boolean): Promise<void> {
  const mediaType = mediaTypeOf(request);
  const bodyless = mediaType === undefined && !hasBody(request);
  if (mediaType === 'application/json' || (bodyless && !bodyRequired)) return Promise.resolve();
  return Promise.reject(new ApiError(415, NOT_JSON));
}

/**
 * onRequest hook: the body must be JSON on GET and POST alike. Runs before Fastify's parsers, so a
 * form or multipart body (which the app can parse elsewhere) gets 415 instead of a field error.
 */
export function requireJsonBody(request: FastifyRequest): Promise<void> {
  return refuseUnlessJson(request, false);
}

/** The same for a route that has nothing to do without a body (creating an entity): none is 415 too. */
export function requireJsonBodyPresent(request: FastifyRequest): Promise<void> {
  return refuseUnlessJson(request, true);
}

/**
 * preValidation hook: Fastify 5 never reads the body of a GET (GET is in its "bodyless" set), so
 * this reads it with the route's body limit and Fastify's own JSON parser, giving the same body
 * and the same errors (400 empty or invalid JSON, 413 too large) as POST.
 */
export async function parseJsonBodyOfGet(request: FastifyRequest): Promise<void> {
  // Like Fastify for POST: a declared content type is parsed even when the body is empty.
  if (request.method !== 'GET' || request.headers['content-type'] === undefined) return;
  const bytes = await readRawBody(request, request.routeOptions.bodyLimit);
  requireUtf8(bytes);
  const raw = bytes.toString('utf8');
  const { onProtoPoisoning, onConstructorPoisoning } = request.server.initialConfig;
  const parse = request.server.getDefaultJsonParser(
    onProtoPoisoning ?? 'error',
    onConstructorPoisoning ?? 'error',
  );
  request.body = await new Promise<unknown>((resolve, reject) => {
    void parse(request, raw, (error, body) => {
      if (error) reject(error);
      else resolve(body);
    });
  });
  refuseNul(request.body);
}

async function readRawBody(request: FastifyRequest, limit: number): Promise<Buffer> {
  if (Number(request.headers['content-length']) > limit) {
    throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  }
  try {
    return await readWithinLimit(
      request.raw,
      limit,
      () => new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(),
    );
  } catch (error) {
    if (error instanceof errorCodes.FST_ERR_CTP_BODY_TOO_LARGE) throw error;
    throw new ApiError(400, 'The request body could not be read.');
  }
}
