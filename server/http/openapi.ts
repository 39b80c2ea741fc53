import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import { ROLES } from '../../contract/audit.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import type { RouteSpec } from './route.ts';

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad parameter, header or body (an unknown query parameter included); `errors` lists the fields',
  401: 'Missing, invalid or expired credentials',
  403: 'Not for this account’s role (auditors only read), or refused by a control',
  404: 'Unknown id or path',
  409: 'Conflicts with an existing record',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Idempotency-Key reused with a different body',
  429: 'Too many requests; see Retry-After',
  431: 'Request headers larger than 16 KB in all',
  500: 'Unexpected server error (details in the server log only)',
  502: 'A downstream service (mail, identity service) failed',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** The tags operations are grouped under, each declared with what it covers. */
const TAGS: Record<string, string> = {
  Authentication: 'Sign-in tokens, their check, sign-out, and what the caller may do',
  Entities: 'Natural persons and legal entities: list, search, read, onboard',
  Documents: 'Supporting documents of an entity, with their bytes in base64',
  Decisions: 'Review outcomes, risk levels, document decisions and four-eyes confirmations',
  'Client updates': 'E-mails asking a client to update their information, and their history',
  Reviews: 'The queue of reviews due, overdue or undated',
  Notes: 'Reviewers’ notes on an entity',
  'Audit trail': 'Who did what, for auditors; an entity’s own activity',
};

function parametersOf(schema: z.ZodType | undefined, location: 'query' | 'path' | 'header') {
  if (!schema) return [];
  const json = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    description: typeof property.description === 'string' ? property.description : undefined,
    schema: property,
  }));
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The operation's camelCase id, derived from its method and path so that every operation has one
 * and no two share it: `GET /api/v2/entities/legal-entities/{id}` → `getEntitiesLegalEntitiesById`.
 */
export function operationIdOf(method: string, openApiPath: string): string {
  const words = openApiPath
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api' && !/^v\d+$/.test(segment))
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (parameter) return `By${capitalise(parameter)}`;
      return segment
        .split(/[^A-Za-z0-9]+/)
        .map(capitalise)
        .join('');
    });
  return `${method.toLowerCase()}${words.join('')}`;
}

/** A GET that takes a body (fetch and XMLHttpRequest cannot send one) and the twin to use instead. */
interface BrowserTwin {
  operationId: string;
  path: string;
}

/** The zod schemas a route declared as its Fastify schema (defineRoute in http/route.ts). */
interface ZodRouteSchema {
  querystring?: z.ZodType;
  params?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodObject;
  security?: FastifySchema['security'];
}

function operationOf(
  spec: RouteSpec,
  schema: ZodRouteSchema,
  operationId: string,
  browserTwin?: BrowserTwin,
) {
  const errorStatuses = [
    ...new Set([
      // Every route parses its query strictly (an unknown parameter is 400) and limits headers.
      400,
      ...(spec.auth === 'none' ? [] : [401]),
      ...(spec.roles && spec.roles.length < ROLES.length ? [403] : []),
      ...(schema.body ? [413] : []),
      ...(spec.errors ?? []),
      431,
      500,
    ]),
  ].sort((a, b) => a - b);
  const twinNote = browserTwin
    ? `Not callable from browsers: fetch and XMLHttpRequest cannot send a body with GET. Use \`POST ${browserTwin.path}\` (${browserTwin.operationId}) with the same body. `
    : '';
  const successResponse = {
    description: spec.response.description,
    // The input side of a response schema is what it reads: the tolerant shapes a client meets.
    content: {
      'application/json': { schema: jsonSchema(spec.response.schema, 'input') },
      ...Object.fromEntries(
        (spec.response.otherMediaTypes ?? []).map((type) => [type, { schema: { type: 'string' } }]),
      ),
    },
  };
  return {
    operationId,
    summary: spec.summary,
    description: `${twinNote}${spec.description ?? ''}` || undefined,
    ...(browserTwin
      ? { 'x-browser-callable': false, 'x-browser-alternative': browserTwin.operationId }
      : {}),
    tags: [spec.tag],
    security: schema.security ?? [],
    ...(spec.roles ? { 'x-roles': spec.roles } : {}),
    parameters: [
      ...parametersOf(schema.params, 'path'),
      ...parametersOf(schema.querystring, 'query'),
      ...parametersOf(schema.headers, 'header'),
    ],
    ...(schema.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (spec.bodyMediaTypes ?? ['application/json']).map((type) => [
                type,
                { schema: jsonSchema(schema.body as z.ZodType, 'input') },
              ]),
            ),
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries(
        [spec.response.status, ...(spec.response.otherStatuses ?? [])].map((status) => [
          status,
          successResponse,
        ]),
      ),
      ...Object.fromEntries(
        errorStatuses.map((status) => [
          status,
          {
            description: [STATUS_TEXT[status] ?? 'Error', spec.errorDescriptions?.[status]]
              .filter(Boolean)
              .join('. '),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}

/** The key under which a route's own operations, one per method, pass through @fastify/swagger. */
const OPERATIONS_KEY = 'x-kyc-desk-operations';

/**
 * @fastify/swagger's `transform`: a route declared with defineRoute becomes its operations (built
 * from its zod schema and config); any other route (health, the console, the gateway's relay) is
 * left out, as are routes without a declaration.
 */
const transform: NonNullable<FastifyDynamicSwaggerOptions['transform']> = ({
  schema,
  url,
  route,
}) => {
  const spec = route.config?.routeSpec;
  if (!spec) return { schema: { hide: true }, url };
  const openApiPath = url.replace(/:(\w+)/g, '{$1}');
  const methods = [route.method].flat().map(String);
  // The body from the declaration itself: a GET with a body keeps it out of Fastify's schema.
  const zodSchema = { ...(schema as ZodRouteSchema), body: spec.body };
  const browserTwin =
    zodSchema.body && methods.includes('GET') && methods.includes('POST')
      ? { operationId: operationIdOf('POST', openApiPath), path: openApiPath }
      : undefined;
  const operations = Object.fromEntries(
    methods.map((method) => [
      method.toLowerCase(),
      operationOf(
        spec,
        zodSchema,
        operationIdOf(method, openApiPath),
        method === 'GET' ? browserTwin : undefined,
      ),
    ]),
  );
  return { schema: { [OPERATIONS_KEY]: operations } as FastifySchema, url };
};

type Operation = ReturnType<typeof operationOf>;

/** The document's frame; its paths are the live app's declared routes (openApiOptions). */
const DOCUMENT_FRAME = {
  openapi: '3.1.0',
  info: {
    title: 'KYC Desk API',
    version: '2.0.0',
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    contact: { name: 'KYC Desk maintainers', email: 'dev@kyc-desk.local' },
    description:
      'Identity-verification records (natural persons and legal entities), their verifications and supporting documents. Every /api/v2 endpoint accepts a Bearer JWT from /api/gettoken or an API key in X-API-Key. Response schemas describe what a client must be ready to read, from this server or, through a gateway, from the real identity service: IDs are opaque strings, statuses and risk levels (text or number) are open, optional text may be null, timestamps may carry fractional seconds, country codes may have two or three letters, a natural person by id may carry its ID only in kycMetaData.entityID, and documents may come without mimeType or fileSize. Request schemas are strict.',
  },
  servers: [{ url: '/' }],
};

export interface OpenApiDocument {
  openapi: string;
  info: (typeof DOCUMENT_FRAME)['info'];
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  components: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
}

/**
 * @fastify/swagger's `transformObject`: the operations `transform` built, in the order the routes
 * were registered, under the tags they use, with the shared security schemes and error envelope.
 */
function documentOf(collectedDocument: unknown): OpenApiDocument {
  const collected = (
    collectedDocument as { paths?: Record<string, Record<string, unknown>> } | undefined
  )?.paths;
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(collected ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const own = (operation as Record<string, Record<string, Operation> | undefined>)[
        OPERATIONS_KEY
      ]?.[method];
      if (own) (paths[path] ??= {})[method] = own;
    }
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => operation.tags),
    ),
  );
  return {
    ...DOCUMENT_FRAME,
    tags: Object.entries(TAGS)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      schemas: { Error: jsonSchema(errorEnvelopeSchema, 'output') },
    },
    paths,
  };
}

/** Options of @fastify/swagger: registered on the root before any route, it sees every one. */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: { openapi: DOCUMENT_FRAME.openapi, info: DOCUMENT_FRAME.info },
    transform,
    transformObject: (documentObject) =>
      documentOf('openapiObject' in documentObject ? documentObject.openapiObject : undefined),
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A readable, script-free reference page rendered from the same document. */
export function renderDocsPage(document: OpenApiDocument): string {
  const sections = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, raw]) => {
      const op = raw;
      const typedResponses: Record<
        string,
        { description: string; content?: Record<string, { schema: unknown }> }
      > = op.responses;
      const responseList = Object.entries(typedResponses);
      const params = op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('');
      const body = op.requestBody
        ? `<h4>Request body</h4><details><summary>${Object.keys(op.requestBody.content).join(', ')}</summary><pre>${escapeHtml(JSON.stringify(Object.values(op.requestBody.content)[0]?.schema, null, 2))}</pre></details>`
        : '';
      const responses = responseList
        .map(
          ([status, response]) =>
            `<li><strong>${status}</strong> ${escapeHtml(response.description)}</li>`,
        )
        .join('');
      const success = responseList[0]?.[1];
      const auth =
        op.security.length === 0 ? 'none' : op.security.map((s) => Object.keys(s)[0]).join(' or ');
      return `<section id="${method}-${escapeHtml(path)}"><h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary)} <code>${escapeHtml(op.operationId)}</code></p>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}<p>Authentication: ${auth}</p>
${params ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${params}</tbody></table>` : ''}
${body}<h4>Responses</h4><ul>${responses}</ul><details><summary>Success schema</summary><pre>${escapeHtml(JSON.stringify(success?.content?.['application/json']?.schema ?? {}, null, 2))}</pre></details></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)} reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/api/docs.css"></head>
<body><main><h1>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}</h1><p>${escapeHtml(document.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>. Errors share one envelope: <code>{code, status:"error", message, data:[], errors?:[{field, message}]}</code>.</p>
${sections.join('\n')}</main></body></html>`;
}

const DOCS_CSS = `body{font-family:system-ui,sans-serif;margin:0;color:#1a1b1e;background:#f8f9fa}main{max-width:960px;margin:0 auto;padding:24px}
section{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:8px 16px;margin:16px 0}pre{overflow:auto;background:#f1f3f5;padding:8px;font-size:12px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e9ecef;text-align:left;padding:4px;font-size:14px;vertical-align:top}td code{word-break:break-all}
.method{display:inline-block;min-width:56px;padding:2px 6px;border-radius:4px;color:#fff;font-size:13px;text-align:center}.get{background:#1c7ed6}.post{background:#2f9e44}`;

/** /api/openapi.json and /api/docs, from the live app's own routes (@fastify/swagger). */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  let cached: { json: string; html: string } | undefined;
  const render = () => {
    if (!cached) {
      const document = app.swagger() as unknown as OpenApiDocument;
      cached = { json: JSON.stringify(document), html: renderDocsPage(document) };
    }
    return cached;
  };
  app.get('/api/openapi.json', (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(render().json),
  );
  app.get('/api/docs', (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(render().html),
  );
  app.get('/api/docs.css', (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(DOCS_CSS),
  );
}
