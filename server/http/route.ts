import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  requestPartOf,
  type AuditEventInput,
  type AuditInTransaction,
} from '../audit/audit-trail.ts';
import { markRecorded, recordRefusal, REFUSAL_STATUSES } from '../audit/refusals.ts';
import type { Role } from '../../contract/audit.ts';
import { READERS, requireRole } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { MAX_ID_LENGTH } from '../../contract/common.ts';
import { ApiError, badRequestOf, parseOrThrow, type InvalidPart } from './errors.ts';
import { deepBodyError } from './limits.ts';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a route declares. Its schemas become the Fastify route's `schema` (validated by the zod
 * type provider, published by @fastify/swagger); the rest rides in the route's `config`.
 */
export interface RouteSpec<
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: HttpMethod | HttpMethod[];
  url: string;
  summary: string;
  description?: string;
  tag: string;
  /** `none` for public routes, `token` for Bearer only, `caller` for Bearer or API key. */
  auth: 'none' | 'token' | 'caller';
  /**
   * The roles that may call a `caller` route (READERS, ACTORS or AUDITORS of auth/caller.ts):
   * required there and only there, checked before anything is parsed (403 otherwise).
   */
  roles?: readonly Role[];
  query?: Q;
  params?: P;
  body?: B;
  /** Request headers the handler reads itself, for the OpenAPI document (header parameters). */
  headers?: z.ZodObject;
  /** Body media type for the OpenAPI document (JSON unless said). */
  bodyMediaTypes?: string[];
  response: {
    status: number;
    schema: z.ZodType;
    description: string;
    /** Other media types the success may take (`text/csv` with `format=csv`), as text. */
    otherMediaTypes?: string[];
    /** Other success statuses answered with the same schema (202 for a held risk change). */
    otherStatuses?: number[];
  };
  /** Error statuses the route documents besides the ones every route has. */
  errors?: number[];
  /** What a status means on this route beyond the shared text (the rules that answer 400). */
  errorDescriptions?: Partial<Record<number, string>>;
  /** The route answers a bare object instead of the envelope (the token endpoints do). */
  bare?: boolean;
  bodyLimit?: number;
  /**
   * The audit event every call makes (docs/audit.md): written after the handler and before the
   * answer, unless the handler wrote it itself (`context.audit.record`); a failed call is
   * recorded with its status. A control (a write, or a route not every role may call) declares
   * it so that its refusals (401, 403, 409, 429) are recorded under its action.
   */
  audit?: AuditSpec<z.infer<Q>, z.infer<P>>;
}

/** What a route records: its action, and what the request is about. */
export interface AuditSpec<Q = unknown, P = unknown> {
  action: string;
  targetOf?: (request: { query: Q; params: P }) => {
    entityId?: string;
    documentId?: string;
    detail?: Record<string, unknown>;
  };
  /**
   * The handler writes its success event itself, inside the change's transaction; the route
   * records only the refusals (401, 403, 409, 429), not a malformed or unknown request.
   */
  writtenByHandler?: boolean;
}

/** The action of refusals on a control that declares no audit event (the refusal matrix fails). */
export const UNDECLARED_CONTROL_ACTION = 'request.refused';

/** Writes the route's audit event from inside a handler (before streaming, or in a transaction). */
export interface RouteAudit {
  record(
    extra?: Partial<
      Pick<AuditEventInput, 'action' | 'actor' | 'outcome' | 'entityId' | 'documentId' | 'detail'>
    >,
    transaction?: Db,
  ): Promise<void>;
  /** Adds to the detail of the event written later, success or refusal (what the handler found). */
  describe(detail: Record<string, unknown>): void;
}

/**
 * The route's audit as the function a service calls inside its own transaction (a decision, an
 * assignment): each event it appends is the route's, with what the service adds.
 */
export function auditInTransaction(audit: RouteAudit): AuditInTransaction {
  return (transaction, { action, entityId, documentId, detail }) =>
    audit.record(
      { ...(action ? { action } : {}), entityId, documentId: documentId ?? null, detail },
      transaction,
    );
}

export interface RouteContext<Q, P, B> {
  query: Q;
  params: P;
  body: B;
  /** The body as it arrived, before its schema parsed it (what an idempotency key is bound to). */
  rawBody: unknown;
  request: FastifyRequest;
  reply: FastifyReply;
  audit: RouteAudit;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route declared with defineRoute: its declaration, read by the OpenAPI document. */
    routeSpec?: RouteSpec;
  }
}

/** The query of a route that declares none: any parameter is unknown, so 400 naming it. */
const noQuerySchema = z.strictObject(
  {},
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'This path takes no query parameters.' : undefined,
  },
);

/** The part of a request Fastify validated (its `SchemaErrorDataVar`). */
type ValidatedPart = 'body' | 'headers' | 'params' | 'querystring';

const INVALID_PART_OF: Record<ValidatedPart, InvalidPart> = {
  querystring: 'parameter',
  params: 'path parameter',
  body: 'field',
  headers: 'header',
};

/**
 * The type provider's validator, with two exceptions: an absent body is read as `{}`,
 * and declared headers are documentation only (the handler reads them itself).
 */
const validatorOfPart: FastifySchemaCompiler<FastifySchema> = (route) => {
  if (route.httpPart === 'headers') return () => true;
  // The part's own schema, one of defineRoute's zod schemas.
  const validate = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
  return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
};

/** Responses are plain JSON, as without a schema: never re-parsed by zod on the way out. */
const stringifyResponse = () => (data: unknown) => JSON.stringify(data);

/** The zod issues of a failed validation, as the 400 with field errors every route answers. */
function validationFailureOf(errors: FastifySchemaValidationError[], part: ValidatedPart): Error {
  const issues = errors.map(({ keyword, instancePath, message, params }) => ({
    ...params,
    code: keyword,
    path: instancePath === '/' ? [] : instancePath.slice(1).split('/'),
    message: message ?? 'Invalid value',
  }));
  return badRequestOf(issues, INVALID_PART_OF[part]);
}

/** The security requirement of each kind of authentication, for the OpenAPI document. */
const SECURITY_OF: Record<RouteSpec['auth'], { [scheme: string]: string[] }[]> = {
  none: [],
  token: [{ bearer: [] }],
  caller: [{ bearer: [] }, { apiKey: [] }],
};

/**
 * The route's Fastify schema: what it validates and what the OpenAPI document publishes. Fastify
 * takes no body schema on GET, so a GET with a body (a browser twin) parses it in its handler.
 */
function routeSchemaOf(spec: RouteSpec, bodyInSchema: boolean): FastifySchema {
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    security: SECURITY_OF[spec.auth],
    querystring: spec.query ?? noQuerySchema,
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.body && bodyInSchema ? { body: spec.body } : {}),
    ...(spec.headers ? { headers: spec.headers } : {}),
    response: { [spec.response.status]: spec.response.schema },
  };
}

/**
 * Registers a route whose query, params and body are validated with its zod schemas by Fastify
 * (400 with field errors otherwise), after its role and id-length checks, and whose result is
 * wrapped in the success envelope. A handler that sends its own answer (`await reply.send(...)`)
 * returns undefined.
 */
export function defineRoute<Q extends z.ZodType, P extends z.ZodType, B extends z.ZodType, R>(
  app: FastifyInstance,
  spec: RouteSpec<Q, P, B>,
  handler: (context: RouteContext<z.infer<Q>, z.infer<P>, z.infer<B>>) => Promise<R> | R,
): void {
  const path = `${app.prefix}${spec.url}`;
  const methods = Array.isArray(spec.method) ? spec.method : [spec.method];
  const { roles } = spec;
  if ((spec.auth === 'caller') !== (roles !== undefined)) {
    throw new Error(
      `${methods.join(',')} ${path}: roles go with authenticated routes, and only there`,
    );
  }
  const isControl =
    spec.auth !== 'none' &&
    (methods.some((method) => method !== 'GET') ||
      (roles !== undefined && !READERS.every((role) => roles.includes(role))));
  const audited = spec.audit !== undefined || isControl;
  const bodyInSchema = !methods.includes('GET');
  const checkBeforeValidation = (request: FastifyRequest): void => {
    const tooDeep = deepBodyError(request.body);
    if (tooDeep) throw tooDeep;
    if (spec.body) rawBodies.set(request, request.body);
    if (spec.audit) {
      pendingEvents.set(request, {
        event: { ...requestPartOf(request), action: spec.audit.action },
        recorded: false,
      });
    }
    if (roles) requireRole(request, roles);
    // Checked before the schema (which would say 400): an ID that long can name nothing.
    const params = (request.params ?? {}) as Record<string, unknown>;
    if (Object.values(params).some((value) => String(value).length > MAX_ID_LENGTH)) {
      throw new ApiError(404, `Nothing has this ID: IDs are at most ${MAX_ID_LENGTH} characters.`);
    }
  };
  app.route({
    method: methods,
    url: spec.url,
    schema: routeSchemaOf(spec, bodyInSchema),
    config: { routeSpec: spec },
    validatorCompiler: validatorOfPart,
    serializerCompiler: stringifyResponse,
    schemaErrorFormatter: validationFailureOf,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    // Before validation, in this order: the depth check, then the role, then an id too long.
    preValidation: (
      request: FastifyRequest,
      _reply: FastifyReply,
      done: (error?: Error) => void,
    ) => {
      try {
        checkBeforeValidation(request);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    ...(audited
      ? {
          // Kept for the refusal's event: its reason and what it was about.
          onError: async (request: FastifyRequest, _reply: FastifyReply, error: Error) => {
            refusalErrors.set(request, error);
          },
          // Before the answer's first byte: a call whose event cannot be written fails with a 500.
          onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
            await recordUnrecordedEvent(spec, isControl, request, reply);
            return payload;
          },
        }
      : {}),
    handler: async (request, reply) => {
      const pending = pendingEvents.get(request);
      const audit: RouteAudit = {
        async record(extra = {}, transaction) {
          if (!pending) throw new Error(`${path} declares no audit event`);
          const event = { ...pending.event, ...extra };
          const trail = request.server.auditTrail;
          if (transaction) await trail.recordIn(transaction, event);
          else await trail.record(event);
          pending.recorded = true;
          markRecorded(request);
        },
        describe(detail) {
          if (!pending) throw new Error(`${path} declares no audit event`);
          pending.event.detail = { ...pending.event.detail, ...detail };
        },
      };
      const context = {
        query: request.query as z.infer<Q>,
        params: (spec.params ? request.params : {}) as z.infer<P>,
        body: (spec.body && !bodyInSchema
          ? parseOrThrow(spec.body, request.body ?? {}, 'field')
          : spec.body
            ? request.body
            : undefined) as z.infer<B>,
        rawBody: rawBodies.get(request),
        request,
        reply,
        audit,
      };
      if (pending) Object.assign(pending.event, spec.audit?.targetOf?.(context));
      const data = await handler(context);
      // Not `reply.sent`: a client that hung up ends the await while the answer's onSend hooks run.
      if (data === undefined) return reply;
      reply.code(spec.response.status);
      return spec.bare
        ? data
        : { code: spec.response.status, status: 'success', message: '', data };
    },
  });
}

/** The event each audited call will write, until it is written. */
interface PendingEvent {
  event: AuditEventInput;
  recorded: boolean;
}
const pendingEvents = new WeakMap<FastifyRequest, PendingEvent>();
const refusalErrors = new WeakMap<FastifyRequest, Error>();
const rawBodies = new WeakMap<FastifyRequest, unknown>();

/**
 * What a call refused before its handler read anything is about: the route's own target, from
 * the raw path and query (only when every id is short enough to name something).
 */
function targetBeforeParsing(spec: RouteSpec, request: FastifyRequest): Partial<AuditEventInput> {
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (Object.values(params).some((value) => String(value).length > MAX_ID_LENGTH)) return {};
  try {
    return spec.audit?.targetOf?.({ query: request.query, params }) ?? {};
  } catch {
    return {};
  }
}

/**
 * onSend of audited routes: writes the event the handler did not write itself. A success whose
 * event cannot be written becomes a 500; a failure is recorded with its status and a refusal of a
 * control (401, 403, 409, 429) with its reason even when the handler never ran; a failing write of
 * either is only logged (never instead of its answer).
 */
async function recordUnrecordedEvent(
  spec: RouteSpec,
  isControl: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const status = reply.statusCode;
  const pending = pendingEvents.get(request) ?? {
    event: { ...requestPartOf(request), action: spec.audit?.action ?? UNDECLARED_CONTROL_ACTION },
    recorded: !(isControl && REFUSAL_STATUSES.has(status)),
  };
  if (pending.recorded) return;
  pending.recorded = true;
  // A handler that writes its own events leaves only the refusals of its control to the route.
  if (spec.audit?.writtenByHandler && !REFUSAL_STATUSES.has(status)) return;
  if (status < 400) {
    await request.server.auditTrail.record(pending.event);
    return;
  }
  await recordRefusal(
    request,
    { ...targetBeforeParsing(spec, request), ...pending.event },
    status,
    refusalErrors.get(request),
  );
}
