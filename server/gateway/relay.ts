import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { ApiError } from '../http/errors.ts';
import type { Redactor } from './redaction.ts';
import { UpstreamFailure, type UpstreamResponse } from './upstream-client.ts';

/** Answers up to this size are read whole and checked; larger ones (documents) stream through. */
export const STREAM_THRESHOLD_BYTES = 1024 * 1024;

/** The only upstream response headers the client sees; the type is always the gateway's own. */
const RELAYED_RESPONSE_HEADERS = ['retry-after', 'idempotent-replayed', 'cache-control'];

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** `application/json` or a `+json` type such as `application/problem+json`, any parameters. */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.-]+\+)?json$/;

/** A streamed answer is relayed only when it starts like the envelope: an object. */
const JSON_OBJECT_START = /^[\t\n\r ]*\{/;
const JSON_OBJECT_END = /\}[\t\n\r ]*$/;

const UPSTREAM_STATUS_TEXT: Record<number, string> = {
  400: 'The identity service refused the request as invalid.',
  401: 'The identity service refused the credentials.',
  403: 'The identity service refused access.',
  404: 'The identity service does not know this path or id.',
  409: 'The identity service reports a conflict with an existing record.',
  413: 'The request body is too large for the identity service.',
  415: 'The identity service does not accept this content type.',
  429: 'The identity service received too many requests. Try again later.',
};

/**
 * What a request that failed on its way to the identity service answers: an ApiError as it is,
 * anything else logged (kind and detail) and turned into its 502/504.
 */
export function apiErrorOfSendFailure(request: FastifyRequest, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const failure =
    error instanceof UpstreamFailure ? error : new UpstreamFailure('unreachable', String(error));
  request.log.warn({ kind: failure.kind, detail: failure.message }, 'identity service failed');
  return apiErrorOf(failure);
}

/** The 502/504 a failed exchange becomes; the detail goes to the log only. */
export function apiErrorOf(failure: UpstreamFailure): ApiError {
  if (failure.kind === 'timeout') {
    return new ApiError(504, 'The identity service did not answer in time.');
  }
  if (failure.kind === 'not-json') {
    return new ApiError(
      502,
      'The identity service answered with something other than JSON; the gateway relays JSON only.',
    );
  }
  if (failure.kind === 'unreadable') {
    return new ApiError(
      502,
      'The identity service is unreachable: its answer could not be read. Try again shortly.',
    );
  }
  return new ApiError(502, 'The identity service is unreachable. Try again shortly.');
}

/** A short answer read whole, or the first part of a long one. */
interface Head {
  chunks: Buffer[];
  size: number;
  complete: boolean;
}

function readHead(response: UpstreamResponse, limit: number): Promise<Head> {
  const body = response.body;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        cleanup();
        body.pause();
        resolve({ chunks, size, complete: false });
      }
    };
    const onEnd = () => {
      cleanup();
      // `complete` is false when the connection closed before the declared length arrived.
      if (body.complete) resolve({ chunks, size, complete: true });
      else reject(new UpstreamFailure('unreadable', 'truncated answer'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(response.failureOf(error));
    };
    const onClose = () => {
      if (!body.complete) onError(new UpstreamFailure('unreadable', 'truncated answer'));
    };
    function cleanup() {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    }
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Whether the upstream declared a JSON answer; its bytes are checked as well. */
function declaresJson(response: UpstreamResponse): boolean {
  const mediaType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return JSON_MEDIA_TYPE.test(mediaType ?? '');
}

function copyHeaders(reply: FastifyReply, response: UpstreamResponse, redactor: Redactor) {
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = response.headers[name];
    if (typeof value === 'string') reply.header(name, redactor.text(value));
  }
  reply.header('content-type', JSON_CONTENT_TYPE);
}

/** The upstream's own words for an error body that is not the envelope, when it has any. */
function messageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // 'messsage': the real service's own misspelling in one of its samples (vendor.md).
  for (const key of ['message', 'messsage', 'error', 'detail', 'title']) {
    const text = (value as Record<string, unknown>)[key];
    if (typeof text === 'string' && text.trim() !== '') return text.trim().slice(0, 500);
  }
  return undefined;
}

/** Whether a whole answer is outlined like the envelope: an object from its first byte to its last. */
function outlinedAsObject(bytes: Buffer): boolean {
  return (
    JSON_OBJECT_START.test(bytes.subarray(0, 64).toString('latin1')) &&
    JSON_OBJECT_END.test(bytes.subarray(-64).toString('latin1'))
  );
}

/**
 * Sends the upstream's answer to the client: 2xx JSON and error envelopes (the API key redacted),
 * other 4xx wrapped into the envelope, anything unreadable or not JSON as 502. Bodies over the
 * threshold stream through.
 */
export async function relay(
  reply: FastifyReply,
  response: UpstreamResponse,
  redactor: Redactor,
): Promise<FastifyReply> {
  const { status } = response;
  const isSuccess = status >= 200 && status < 300;
  const isError = status >= 400 && status < 600;
  const isJson = declaresJson(response);
  if ((!isSuccess && !isError) || (isSuccess && !isJson)) {
    response.body.destroy();
    response.stopDeadline();
    throw apiErrorOf(
      isSuccess
        ? new UpstreamFailure('not-json', 'success answer of another type')
        : new UpstreamFailure('unreadable', `unexpected status ${status}`),
    );
  }

  let head: Head;
  try {
    head = await readHead(response, STREAM_THRESHOLD_BYTES);
  } catch (error) {
    response.stopDeadline();
    throw apiErrorOf(error instanceof UpstreamFailure ? error : response.failureOf(error));
  }

  if (!head.complete) {
    const startsLikeObject = JSON_OBJECT_START.test(
      Buffer.concat(head.chunks, head.size).subarray(0, 64).toString('latin1'),
    );
    if (!isSuccess || !startsLikeObject) {
      response.body.destroy();
      response.stopDeadline();
      throw apiErrorOf(
        isSuccess
          ? new UpstreamFailure('not-json', 'streamed answer does not start like an object')
          : new UpstreamFailure('unreadable', 'oversized error answer'),
      );
    }
    return streamOn(reply, response, head, redactor);
  }

  response.stopDeadline();
  const bytes = Buffer.concat(head.chunks, head.size);
  // A success that cannot hold the key is sent as read, checked by its outline: decoding a 150 KB
  // list page (and walking it for the key) cost the gateway more than relaying it.
  if (isSuccess && !redactor.mayBeIn(bytes)) {
    if (!outlinedAsObject(bytes)) {
      throw apiErrorOf(new UpstreamFailure('unreadable', 'success answer is not a JSON object'));
    }
    copyHeaders(reply, response, redactor);
    return reply.code(status).send(bytes);
  }
  const parsed = isJson ? parseJson(bytes) : { ok: false as const };
  if (parsed.ok && (isSuccess || errorEnvelopeSchema.safeParse(parsed.value).success)) {
    copyHeaders(reply, response, redactor);
    const redacted = redactor.json(parsed.value);
    return reply.code(status).send(redacted.changed ? JSON.stringify(redacted.value) : bytes);
  }
  throw refusalOf(response, parsed.ok ? parsed.value : undefined, redactor);
}

/**
 * What an answer that is neither taken nor the error envelope becomes: a 4xx an envelope in the
 * upstream's own words (or `refusal`), with its Retry-After; anything else a 502.
 */
export function refusalOf(
  response: UpstreamResponse,
  value: unknown,
  redactor: Redactor,
  refusal?: string,
): ApiError {
  const { status } = response;
  if (status < 400 || status >= 500) {
    return apiErrorOf(new UpstreamFailure('unreadable', `status ${status} without the envelope`));
  }
  const retryAfter = response.headers['retry-after'];
  return new ApiError(
    status,
    messageOf(redactor.json(value).value) ??
      refusal ??
      UPSTREAM_STATUS_TEXT[status] ??
      `The identity service refused the request (status ${status}).`,
    [],
    typeof retryAfter === 'string' ? { 'Retry-After': redactor.text(retryAfter) } : {},
  );
}

/** Streams a long answer: what was read so far, then the rest as it arrives, never held whole. */
function streamOn(
  reply: FastifyReply,
  response: UpstreamResponse,
  head: Head,
  redactor: Redactor,
): FastifyReply {
  response.stopDeadline();
  const out = redactor.stream();
  for (const chunk of head.chunks) out.write(chunk);
  const idleMs = response.timeoutMs;
  let idle = setTimeout(onIdle, idleMs);
  function onIdle() {
    response.body.destroy(new UpstreamFailure('timeout', 'idle while streaming'));
  }
  response.body.on('data', () => {
    clearTimeout(idle);
    idle = setTimeout(onIdle, idleMs);
  });
  response.body.on('error', (error) => out.destroy(error));
  response.body.on('close', () => {
    clearTimeout(idle);
    // A connection lost mid-answer: the status is already sent, so the client's connection closes.
    if (!response.body.complete) out.destroy(new Error('the identity service closed mid-answer'));
  });
  response.body.pipe(out);
  response.body.resume();
  copyHeaders(reply, response, redactor);
  const length = response.headers['content-length'];
  if (typeof length === 'string') reply.header('content-length', length);
  return reply.code(response.status).send(out);
}

/** A short JSON answer read whole (the token check); unreadable or oversized is a failure. */
export async function readJsonAnswer(
  response: UpstreamResponse,
  redactor: Redactor,
): Promise<{ status: number; value: unknown; message: string | undefined }> {
  let head: Head;
  try {
    head = await readHead(response, STREAM_THRESHOLD_BYTES);
  } catch (error) {
    throw apiErrorOf(error instanceof UpstreamFailure ? error : response.failureOf(error));
  } finally {
    response.stopDeadline();
  }
  if (!head.complete) {
    response.body.destroy();
    throw apiErrorOf(new UpstreamFailure('unreadable', 'oversized answer'));
  }
  if (!declaresJson(response)) {
    throw apiErrorOf(new UpstreamFailure('not-json', 'token check answered another type'));
  }
  const parsed = parseJson(Buffer.concat(head.chunks, head.size));
  if (!parsed.ok) throw apiErrorOf(new UpstreamFailure('unreadable', 'answer is not JSON'));
  const value = redactor.json(parsed.value).value;
  return { status: response.status, value, message: messageOf(value) };
}
