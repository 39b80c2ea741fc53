import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type UpstreamHandler = (
  request: RecordedRequest,
  response: http.ServerResponse,
) => void | Promise<void>;

export interface RecordingUpstream {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests other than the token check. */
  entityRequests(): RecordedRequest[];
  tokenChecks(): RecordedRequest[];
  handle(handler: UpstreamHandler): void;
  /** Stops listening and drops every open connection; `listen` starts again on the same port. */
  stop(): Promise<void>;
  listen(): Promise<void>;
}

export const GOOD_TOKEN = 'good.token.value';

/** Accepts GOOD_TOKEN, answers every other request with a small success envelope. */
export const defaultHandler: UpstreamHandler = (request, response) => {
  if (request.url === '/api/tokenvalid') {
    const valid = request.headers.authorization === `Bearer ${GOOD_TOKEN}`;
    sendJson(
      response,
      valid ? 200 : 401,
      valid
        ? { isTokenValid: true }
        : { code: 401, status: 'error', message: 'The token is invalid.', data: [] },
    );
    return;
  }
  sendJson(response, 200, { code: 200, status: 'success', message: '', data: [] });
};

export function sendJson(response: http.ServerResponse, status: number, value: unknown) {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** A stand-in identity service on node:http that records every request it receives. */
export async function startRecordingUpstream(port = 0): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = [];
  let handler: UpstreamHandler = defaultHandler;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      void handler(recorded, response);
    });
  });
  let boundPort = port;
  async function listen() {
    server.listen(boundPort, '127.0.0.1');
    await once(server, 'listening');
    boundPort = (server.address() as AddressInfo).port;
  }
  await listen();
  return {
    url: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    requests,
    entityRequests: () => requests.filter((request) => request.url !== '/api/tokenvalid'),
    tokenChecks: () => requests.filter((request) => request.url === '/api/tokenvalid'),
    handle(next) {
      handler = next;
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    listen,
  };
}
