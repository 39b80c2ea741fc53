import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeWithinLimit } from '../http/body-limit.ts';
import { ApiError } from '../http/errors.ts';

/** Why an exchange with the identity service failed before it gave a usable answer. */
export type UpstreamFailureKind = 'timeout' | 'unreachable' | 'unreadable' | 'not-json';

export class UpstreamFailure extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    detail: string,
  ) {
    super(detail);
    this.name = 'UpstreamFailure';
  }
}

export interface UpstreamRequest {
  method: string;
  /** Path and query, appended to the upstream base address. */
  path: string;
  headers: Record<string, string>;
  /** Streamed to the upstream as it arrives; at most `bodyLimit` bytes. */
  body?: Readable;
  bodyLimit?: number;
  /** Given the exchange's end, calls it when the exchange is no longer wanted (the client went away). */
  abandonOn?: (abandon: () => void) => void;
}

export interface UpstreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
  /** The configured timeout, also the longest silence allowed while an answer streams. */
  timeoutMs: number;
  /** The failure a body error stands for: a timeout once the deadline has passed. */
  failureOf(error: unknown): UpstreamFailure;
  /** Ends the whole-exchange deadline (the answer is read, or streams on under its own timer). */
  stopDeadline(): void;
}

export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): void;
}

/** node:http rather than fetch: fetch cannot send the GET body request-client-update needs. */
export function createUpstreamClient(upstream: { url: string; timeoutMs: number }): UpstreamClient {
  const base = new URL(upstream.url);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 64 });
  const basePath = base.pathname.replace(/\/+$/, '');

  function send(request: UpstreamRequest): Promise<UpstreamResponse> {
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const outgoing = transport.request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        path: basePath + request.path,
        method: request.method,
        headers: request.headers,
        agent,
      });
      // A callback rather than an AbortSignal: the signal's listeners cost 3% of a gateway read's CPU.
      request.abandonOn?.(() => {
        outgoing.destroy(new UpstreamFailure('unreachable', 'the client went away'));
      });
      const deadline = setTimeout(() => {
        timedOut = true;
        outgoing.destroy(new UpstreamFailure('timeout', 'deadline passed'));
      }, upstream.timeoutMs);

      const failureOf = (error: unknown): UpstreamFailure => {
        if (timedOut) return new UpstreamFailure('timeout', 'deadline passed');
        if (error instanceof UpstreamFailure) return error;
        const code = (error as { code?: unknown }).code;
        const detail = error instanceof Error ? error.message : String(error);
        if (typeof code === 'string' && code.startsWith('HPE_')) {
          return new UpstreamFailure('unreadable', detail);
        }
        return new UpstreamFailure('unreachable', detail);
      };

      outgoing.on('response', (incoming) => {
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: incoming,
          timeoutMs: upstream.timeoutMs,
          failureOf,
          stopDeadline() {
            clearTimeout(deadline);
          },
        });
      });
      outgoing.on('error', (error) => {
        clearTimeout(deadline);
        reject(error instanceof ApiError ? error : failureOf(error));
      });

      if (!request.body) {
        outgoing.end();
        return;
      }
      // Back-pressure and the limit through pipeline; its failure (413, a client gone) ends the exchange.
      pipeWithinLimit(
        request.body,
        request.bodyLimit ?? Number.POSITIVE_INFINITY,
        () => new ApiError(413, 'The request body is too large.'),
        outgoing,
      ).catch((error: unknown) => {
        clearTimeout(deadline);
        reject(error instanceof ApiError ? error : failureOf(error));
      });
    });
  }

  return {
    send,
    close() {
      agent.destroy();
    },
  };
}
