import type { z } from 'zod';
import { serviceErrorEnvelopeSchema, type FieldError } from '../../contract/common.ts';

/** Every failed call becomes this: status 0 when the server could not be reached or misbehaved. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    /** Seconds the server asked to wait (Retry-After on a 429 or 503), when it said. */
    readonly retryAfterSeconds: number | null = null,
    /** The envelope's `data`, read by the caller that knows its shape (a 409's existing entity). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface AuthHooks {
  getToken(): string | null;
  /** Called on a 401 for a signed-in call; resolves true once the user has signed in again. */
  onUnauthorized(): Promise<boolean>;
}

let authHooks: AuthHooks = { getToken: () => null, onUnauthorized: () => Promise.resolve(false) };

/** The auth feature plugs its session in here; the client stays free of UI. */
export function configureAuth(hooks: AuthHooks): void {
  authHooks = hooks;
}

/** The Bearer token apiRequest would send, for a worker that fetches on the console's behalf. */
export function currentToken(): string | null {
  return authHooks.getToken();
}

/** The re-sign-in apiRequest runs on a 401, for a worker's fetch; true once signed in again. */
export function handleUnauthorized(): Promise<boolean> {
  return authHooks.onUnauthorized();
}

export type QueryValue = string | number | boolean | undefined | null;

export interface ApiRequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** A plain object is sent as JSON; FormData and URLSearchParams as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Parses the success body; unknown fields are dropped, missing ones fail. */
  schema: z.ZodType<T>;
  signal?: AbortSignal;
  /** false for the sign-in call itself: no Bearer header, no re-sign-in on 401. */
  authenticated?: boolean;
  /** Lets the request finish after the page has moved on (sign-out). */
  keepalive?: boolean;
  /** Called as the response body arrives (bytes so far, total or null when unknown). */
  onProgress?: (loaded: number, total: number | null) => void;
}

const STATUS_MESSAGES: Record<number, string> = {
  401: 'Your session has ended. Sign in again.',
  403: 'You are not allowed to do this.',
  404: 'Not found.',
  413: 'The request is too large.',
  429: 'Too many attempts. Wait a moment and try again.',
  502: 'The identity service could not be reached. Try again in a moment.',
  503: 'The service is unavailable. Try again in a moment.',
  504: 'The identity service did not answer in time. Try again in a moment.',
};

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The one place the console calls fetch. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  const authenticated = options.authenticated ?? true;
  const response = await send(path, options, authenticated);
  if (response.status === 401 && authenticated && (await authHooks.onUnauthorized())) {
    return readResponse(await send(path, options, authenticated), options);
  }
  return readResponse(response, options);
}

type SendOptions = Pick<
  ApiRequestOptions<unknown>,
  'method' | 'query' | 'body' | 'headers' | 'signal' | 'keepalive'
>;

async function send(path: string, options: SendOptions, authenticated: boolean) {
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = authenticated ? authHooks.getToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData || options.body instanceof URLSearchParams) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal ?? null,
      keepalive: options.keepalive ?? false,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  }
}

export interface ApiDownloadOptions {
  query?: Record<string, QueryValue>;
  /** What to ask for, e.g. `text/csv`; an error still comes back as a JSON envelope. */
  accept: string;
  signal?: AbortSignal;
  onProgress?: (loaded: number, total: number | null) => void;
}

/** A GET whose body is a file (a CSV export), read as it streams in, with the Bearer token. */
export async function apiDownload(path: string, options: ApiDownloadOptions): Promise<Blob> {
  const request: SendOptions = {
    query: options.query,
    headers: { Accept: options.accept },
    signal: options.signal,
  };
  let response = await send(path, request, true);
  if (response.status === 401 && (await authHooks.onUnauthorized())) {
    response = await send(path, request, true);
  }
  if (!response.ok) {
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      json = undefined;
    }
    throw errorFromResponse(response.status, json, response.headers.get('Retry-After'));
  }
  const type = response.headers.get('Content-Type') ?? options.accept;
  if (!response.body) return new Blob([await response.arrayBuffer()], { type });
  const total = Number(response.headers.get('Content-Length')) || null;
  const reader = response.body.getReader();
  // Chunks go into the Blob as they are, so the browser can keep a large export off the JS heap.
  const chunks: BlobPart[] = [];
  let loaded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      options.onProgress?.(loaded, total);
    }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The download was interrupted. Try again.');
  }
  return new Blob(chunks, { type });
}

async function readResponse<T>(response: Response, options: ApiRequestOptions<T>): Promise<T> {
  const text = await readText(response, options.onProgress);
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    throw errorFromResponse(response.status, json, response.headers.get('Retry-After'));
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    // A 2xx whose body is an error envelope is a failure all the same, with the body's own code.
    const failure = serviceErrorEnvelopeSchema.safeParse(json);
    if (failure.success) throw errorFromResponse(failure.data.code ?? 0, json);
    throw new ApiError(0, 'The server answered in a form this console does not understand.');
  }
  return parsed.data;
}

/**
 * The ApiError for a failed response: the envelope's message (either service's envelope, see
 * serviceErrorEnvelopeSchema), else one for its status; a 429 says in words how long to wait,
 * whatever the service's own wording.
 */
export function errorFromResponse(
  status: number,
  json: unknown,
  retryAfter: string | null = null,
): ApiError {
  const envelope = serviceErrorEnvelopeSchema.safeParse(json);
  const message = envelope.success ? envelope.data.message : null;
  return new ApiError(
    status,
    (status === 429 ? (tooManyAttemptsMessage(retryAfter) ?? message) : message) ??
      STATUS_MESSAGES[status] ??
      `The server answered ${status}.`,
    envelope.success ? envelope.data.errors : [],
    secondsOf(retryAfter),
    envelope.success ? envelope.data.data : undefined,
  );
}

/** Retry-After in seconds (the form this server sends); null for a date or nothing. */
function secondsOf(retryAfter: string | null): number | null {
  return retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
}

/** "Try again in N minutes." from a Retry-After of seconds; undefined when it gives none. */
function tooManyAttemptsMessage(retryAfter: string | null): string | undefined {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !/^\d+$/.test(retryAfter.trim()) || seconds <= 0) return undefined;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** Reads the body as text, reporting progress when asked (large documents). */
async function readText(
  response: Response,
  onProgress?: (loaded: number, total: number | null) => void,
) {
  if (!onProgress || !response.body) return response.text();
  const total = Number(response.headers.get('Content-Length')) || null;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    onProgress(loaded, total);
  }
  parts.push(decoder.decode());
  return parts.join('');
}
