import type { FastifyServerOptions } from 'fastify';

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

/** Pino options for createApp: the level plus redaction, and a destination when given. */
export function loggerOptionsOf(level: string, destination?: LogDestination): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    ...(destination ? { stream: destination } : {}),
  };
}
