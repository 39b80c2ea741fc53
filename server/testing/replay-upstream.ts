import crypto from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  vendorBadRequest,
  vendorDocumentDetail,
  vendorDocuments,
  vendorEntityList,
  vendorLegalEntities,
  vendorNotFound,
  vendorPersonDetail,
  vendorSuccess,
  vendorTestInc,
  VENDOR_DOCUMENT_OWNER,
  VENDOR_IDS,
} from '../../contract/testing/vendor-samples.ts';

/**
 * A replay of the real identity service for tests: it answers with the shapes vendor.md documents
 * (its published samples, contract/testing/vendor-samples.ts), not with this project's own records:
 * a bare `{token}` and `{isTokenValid}`, the list-style natural person, the person by id without
 * `id` or `type`, documents without MIME type or size, errors with status `failure` and data null
 * (once `messsage`), and a create answered with HTTP 200 and `code: 201`.
 */
export interface ReplayUpstream {
  url: string;
  username: string;
  password: string;
  apiKey: string;
  /** The header the replay expects the key in (the real service does not name it). */
  apiKeyHeader: string;
  close(): Promise<void>;
}

/** The text of the replay's 400, which it sends under the misspelt key `messsage`. */
export const REPLAY_LIMIT_MESSAGE = 'limit must be between 1 and 100';

/** The list's `type` filter; `all` (or anything else) lists both kinds. */
const TYPE_OF_FILTER: Record<string, string | undefined> = {
  'natural-persons': 'Natural Person',
  'legal-entities': 'Legal Entity',
};

function send(response: http.ServerResponse, status: number, value: unknown) {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

const base64Url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT-shaped token; only `exp` is promised by the real service, so only `exp` is given. */
function tokenExpiringIn(seconds: number): string {
  const exp = Math.floor(Date.now() / 1000) + seconds;
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url({ exp })}.${crypto.randomBytes(16).toString('base64url')}`;
}

async function formFields(request: http.IncomingMessage, body: Buffer): Promise<FormData | null> {
  try {
    return await new Request('http://replay.invalid/', {
      method: 'POST',
      headers: { 'content-type': request.headers['content-type'] ?? '' },
      body: new Uint8Array(body),
    }).formData();
  } catch {
    return null;
  }
}

export async function startReplayUpstream(): Promise<ReplayUpstream> {
  const username = 'replay-reviewer';
  const password = crypto.randomBytes(12).toString('base64url');
  const apiKey = crypto.randomBytes(24).toString('base64url');
  const apiKeyHeader = 'x-api-key';
  const issuedTokens = new Set<string>();

  async function answer(
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
  ) {
    const url = new URL(request.url ?? '/', 'http://replay.invalid');
    const path = url.pathname;
    const method = request.method ?? 'GET';

    if (method === 'POST' && path === '/api/gettoken') {
      const form = await formFields(request, body);
      const valid = form?.get('Username') === username && form.get('Password') === password;
      if (!valid) {
        send(response, 401, {
          code: 401,
          status: 'failure',
          message: 'invalid credentials',
          data: null,
        });
        return;
      }
      const token = tokenExpiringIn(3600);
      issuedTokens.add(token);
      send(response, 200, { token });
      return;
    }
    if (method === 'GET' && path === '/api/tokenvalid') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (issuedTokens.has(token)) send(response, 200, { isTokenValid: true });
      else
        send(response, 401, { code: 401, status: 'failure', message: 'invalid token', data: null });
      return;
    }
    if (!path.startsWith('/api/v2/')) {
      send(response, 404, vendorNotFound('resource'));
      return;
    }
    if (request.headers[apiKeyHeader] !== apiKey) {
      send(response, 401, { code: 401, status: 'failure', message: 'invalid api key', data: null });
      return;
    }

    const segments = path.split('/').slice(3).map(decodeURIComponent);
    if (method === 'GET' && path === '/api/v2/entities') {
      const limit = Number(url.searchParams.get('limit') ?? '10');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        send(response, 400, vendorBadRequest(REPLAY_LIMIT_MESSAGE));
        return;
      }
      const wanted = TYPE_OF_FILTER[url.searchParams.get('type') ?? 'all'];
      const entities = vendorEntityList.filter((entity) => !wanted || entity.type === wanted);
      send(response, 200, vendorSuccess(entities.slice(0, limit)));
      return;
    }
    if (method === 'POST' && path === '/api/v2/entities/legal-entities') {
      // The real service answers a create with HTTP 200, `code: 201` and an empty `errors`.
      const created = { ...vendorTestInc, id: crypto.randomUUID() };
      send(response, 200, { ...vendorSuccess(created, 201), errors: [] });
      return;
    }
    const [first, second, third, fourth] = segments;
    if (method === 'GET' && path === '/api/v2/entities/natural-persons') {
      // The search's answer is not published; decisions.md's shape: the matching IDs.
      const lastName = (url.searchParams.get('lastName') ?? '').toLowerCase();
      const matches = vendorPersonDetail.personalInformation.lastName
        .toLowerCase()
        .includes(lastName);
      send(response, 200, vendorSuccess(matches ? [VENDOR_IDS.person] : []));
      return;
    }
    if (
      method === 'GET' &&
      first === 'entities' &&
      second === 'legal-entities' &&
      fourth === 'request-client-update'
    ) {
      const known = vendorLegalEntities.some((entity) => entity.id === third);
      const sent = {
        requestId: crypto.randomUUID(),
        recipientEmail: vendorPersonDetail.personalInformation.email,
        sentAt: new Date().toISOString(),
      };
      send(
        response,
        known ? 200 : 404,
        known ? vendorSuccess(sent) : vendorNotFound('legal entity'),
      );
      return;
    }
    if (method === 'GET' && first === 'entities' && second === 'legal-entities' && third) {
      const found = vendorLegalEntities.find((entity) => entity.id === third);
      send(
        response,
        found ? 200 : 404,
        found ? vendorSuccess(found) : vendorNotFound('legal entity'),
      );
      return;
    }
    if (method === 'GET' && first === 'entities' && second === 'natural-persons' && third) {
      const found = third === VENDOR_IDS.person;
      send(
        response,
        found ? 200 : 404,
        found ? vendorSuccess(vendorPersonDetail) : vendorNotFound('natural person'),
      );
      return;
    }
    if (method === 'GET' && first === 'entities' && second && third === 'documents') {
      const known = vendorEntityList.some((entity) => entity.id === second);
      const documents = second === VENDOR_DOCUMENT_OWNER ? vendorDocuments : [];
      send(
        response,
        known ? 200 : 404,
        known ? vendorSuccess(documents) : vendorNotFound('entity'),
      );
      return;
    }
    if (method === 'GET' && first === 'documents' && second) {
      const found = second === VENDOR_IDS.document;
      send(
        response,
        found ? 200 : 404,
        found ? vendorSuccess(vendorDocumentDetail) : vendorNotFound('document'),
      );
      return;
    }
    send(response, 404, vendorNotFound('resource'));
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      answer(request, Buffer.concat(chunks), response).catch(() => {
        if (!response.headersSent)
          send(response, 500, {
            code: 500,
            status: 'failure',
            message: 'replay failed',
            data: null,
          });
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    username,
    password,
    apiKey,
    apiKeyHeader,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
