import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestPartOf, type AuditEventInput } from '../audit/audit-trail.ts';
import type { Role } from '../../src/contract/audit.ts';
import { requireRole } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { MAX_ID_LENGTH } from '../../src/contract/common.ts';
import { databaseFaultOf } from '../db/database-faults.ts';
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
  /** Body media type for the OpenAPI document (JSON unless said). */
  bodyMediaTypes?: string[];
  response: { status: number; schema: z.ZodType; description: string };
  /** Error statuses the route documents besides the ones every route has. */
  errors?: number[];
  /** The route answers a bare object instead of the envelope (the token endpoints do). */
  bare?: boolean;
  bodyLimit?: number;
  /**
   * The audit event every call makes (docs/audit.md): written after the handler and before the
   * answer, unless the handler wrote it itself (`context.audit.record`); a failed call is
   * recorded with its status.
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
}

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
 * errors otherwise) and whose result is wrapped in the success envelope.
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
  app.route({
    method: methods,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    // Before the answer's first byte: a call whose event cannot be written fails with a 500.
    ...(spec.audit ? { onSend: recordUnrecordedEvent } : {}),
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
      if (reply.sent) return reply;
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

/**
 * onSend of audited routes: writes the event the handler did not write itself. A success whose
 * event cannot be written becomes a 500; a refusal is recorded with its status, and a failing
 * write of it is only logged (never instead of its answer).
 */
async function recordUnrecordedEvent(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const pending = pendingEvents.get(request);
  if (!pending || pending.recorded) return payload;
  pending.recorded = true;
  const status = reply.statusCode;
  if (status < 400) {
    await request.server.auditTrail.record(pending.event);
    return payload;
  }
  try {
    await request.server.auditTrail.record({
      ...pending.event,
      outcome: status === 401 || status === 403 ? 'denied' : 'failure',
      detail: { ...pending.event.detail, status },
    });
  } catch (auditError) {
    // A full storage or an unreachable database is logged once per change of state (db/database-faults.ts).
    if (databaseFaultOf(auditError) === undefined) {
      request.log.error({ err: auditError }, 'audit event of a refused request not written');
    }
  }
  return payload;
}
