import type { FastifyRequest, FastifyServerOptions } from 'fastify';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** Where log lines go when not stdout; tests pass a stream to read what the server logged. */
export interface LogDestination {
  write(line: string): void;
}

/**
 * Credentials and file contents never reach the log, wherever a log call puts them: request
 * headers (should a serializer ever include them), form and JSON body fields, and any object
 * logged with one of these keys at the top or one level down.
 */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'req.body',
  'body',
  'password',
  'Password',
  'token',
  'apiKey',
  'file',
  '*.password',
  '*.Password',
  '*.token',
  '*.apiKey',
  '*.file',
  'supportingDocuments[*].file',
  '*.supportingDocuments[*].file',
];

const REDACTED = '[redacted]';

/** A parameter name short and plain enough to be a name rather than a pasted credential. */
const PLAIN_PARAMETER_NAME = /^[A-Za-z][\w.-]{0,39}$/;

/**
 * The URL with every query value replaced: credentials sent as `?access_token=`, `?apiKey=` or
 * `?password=` are refused, but would otherwise reach the log verbatim, as would search text.
 */
function urlForLog(rawUrl: string): string {
  // A client-portal link's token is a credential: its path never reaches the log.
  const url = rawUrl.replace(/^(\/(?:api\/)?portal\/)[^/?]+/, `$1${REDACTED}`);
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const name = separator === -1 ? '' : pair.slice(0, separator);
      return `${PLAIN_PARAMETER_NAME.test(name) ? name : REDACTED}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** Fastify's own request serializer with the query values redacted; tolerant of any `req` logged. */
function requestForLog(request: Partial<FastifyRequest>) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? urlForLog(request.url) : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Pino options for createApp: the level plus redaction, and a destination when given. */
export function loggerOptionsOf(level: string, destination?: LogDestination): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_LOG_PATHS, censor: REDACTED },
    serializers: { req: requestForLog },
    ...(destination ? { stream: destination } : {}),
  };
}
