import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestPartOf, type AuditEventInput } from '../audit/audit-trail.ts';
import { markRecorded, recordRefusal, REFUSAL_STATUSES } from '../audit/refusals.ts';
import type { Role } from '../../contract/audit.ts';
import { READERS, requireRole } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { MAX_ID_LENGTH } from '../../contract/common.ts';
import { ApiError, parseOrThrow } from './errors.ts';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route declares; the OpenAPI document is built from these declarations alone. */
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
    extra?: Partial<Pick<AuditEventInput, 'action' | 'entityId' | 'documentId' | 'detail'>>,
    transaction?: Db,
  ): Promise<void>;
  /** Adds to the detail of the event written later, success or refusal (what the handler found). */
  describe(detail: Record<string, unknown>): void;
}

export interface RouteContext<Q, P, B> {
  query: Q;
  params: P;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  audit: RouteAudit;
}

export interface RegisteredRoute {
  spec: RouteSpec;
  path: string;
}

/** The query of a route that declares none: any parameter is unknown, so 400 naming it. */
const noQuerySchema = z.strictObject(
  {},
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'This path takes no query parameters.' : undefined,
  },
);

/** Every route defined in any app instance, for the OpenAPI document. */
const registry = new Map<string, RegisteredRoute>();

export function registeredRoutes(): RegisteredRoute[] {
  return [...registry.values()];
}

/**
 * Registers a route whose query, params and body are parsed with its zod schemas (400 with field
 * errors otherwise) and whose result is wrapped in the success envelope. A handler that sends its
 * own answer (`await reply.send(...)`) returns undefined.
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
  registry.set(`${methods.join(',')} ${path}`, { spec, path });
  const isControl =
    spec.auth !== 'none' &&
    (methods.some((method) => method !== 'GET') ||
      (roles !== undefined && !READERS.every((role) => roles.includes(role))));
  const audited = spec.audit !== undefined || isControl;
  app.route({
    method: methods,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
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
      const pending: PendingEvent | undefined = spec.audit
        ? { event: { ...requestPartOf(request), action: spec.audit.action }, recorded: false }
        : undefined;
      if (pending) pendingEvents.set(request, pending);
      if (roles) requireRole(request, roles);
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
      // Checked before the schema (which would say 400): an ID that long can name nothing.
      const params = (request.params ?? {}) as Record<string, unknown>;
      if (Object.values(params).some((value) => String(value).length > MAX_ID_LENGTH)) {
        throw new ApiError(
          404,
          `Nothing has this ID: IDs are at most ${MAX_ID_LENGTH} characters.`,
        );
      }
      const context = {
        query: parseOrThrow(spec.query ?? noQuerySchema, request.query, 'parameter') as z.infer<Q>,
        params: (spec.params
          ? parseOrThrow(spec.params, request.params, 'path parameter')
          : {}) as z.infer<P>,
        body: (spec.body
          ? parseOrThrow(spec.body, request.body ?? {}, 'field')
          : undefined) as z.infer<B>,
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
