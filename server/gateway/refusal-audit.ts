import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditEventInput } from '../audit/audit-trail.ts';
import { requestPartOf } from '../audit/audit-trail.ts';
import { recordRefusal, REFUSAL_STATUSES } from '../audit/refusals.ts';
import { isSafePathParameter, v2TargetOf } from './forward-target.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Gateway routes of its own that are controls: the action their refusals are recorded under. */
    refusalAction?: string;
  }
}

/** Methods that only read: a forwarded call with any other is a write, so a control. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * What a refused gateway call is about: a route of the gateway's own that names its action, or a
 * forwarded write by the allow-list's action; undefined when the call is no control.
 */
function controlOf(request: FastifyRequest): Partial<AuditEventInput> | undefined {
  const { refusalAction } = request.routeOptions.config;
  if (refusalAction !== undefined) {
    const { id } = (request.params ?? {}) as { id?: string };
    return {
      action: refusalAction,
      ...(id !== undefined && isSafePathParameter(id) ? { entityId: id } : {}),
    };
  }
  if (request.routeOptions.url !== '/api/v2/*' || READ_METHODS.has(request.method))
    return undefined;
  return v2TargetOf(request.method, request.url)?.audit;
}

/**
 * Gateway mode's half of "every refused call to a control is on the record": the gateway's own
 * and forwarded routes are not declared through defineRoute, so one hook pair on the gateway
 * records their 401, 403, 409 and 429 (what defineRoute's routes record themselves is left alone).
 */
export function installGatewayRefusalAudit(app: FastifyInstance): void {
  const errors = new WeakMap<FastifyRequest, Error>();
  app.addHook('onError', async (request, _reply, error) => {
    errors.set(request, error);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if (!REFUSAL_STATUSES.has(status)) return payload;
    const control = controlOf(request);
    if (!control?.action) return payload;
    await recordRefusal(
      request,
      { ...requestPartOf(request), ...control, action: control.action },
      status,
      errors.get(request),
    );
    return payload;
  });
}
