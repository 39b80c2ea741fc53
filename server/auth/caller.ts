import type { Role } from '../../src/contract/audit.ts';
import { ApiError } from '../http/errors.ts';

/** Who is calling an /api/v2 endpoint, set by authenticateCaller before any handler runs. */
export interface Caller {
  accountId: string;
  username: string;
  role: Role;
  via: 'token' | 'apiKey';
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

/** The caller of an authenticated route (authenticateCaller guarantees one). */
export function callerOf(request: { caller?: Caller }): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without authentication');
  return request.caller;
}

/** 403 unless the caller has this role (decisions.md: the envelope, naming the role). */
export function requireRole(request: { caller?: Caller }, role: Role): Caller {
  const caller = callerOf(request);
  if (caller.role !== role) {
    throw new ApiError(403, `Only an account with the ${role} role can do this.`);
  }
  return caller;
}
