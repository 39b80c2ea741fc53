import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseOrThrow } from './errors.ts';

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
}

export interface RouteContext<Q, P, B> {
  query: Q;
  params: P;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
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
  registry.set(`${methods.join(',')} ${path}`, { spec, path });
  app.route({
    method: methods,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: async (request, reply) => {
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
      };
      const data = await handler(context);
      if (reply.sent) return reply;
      reply.code(spec.response.status);
      return spec.bare
        ? data
        : { code: spec.response.status, status: 'success', message: '', data };
    },
  });
}
