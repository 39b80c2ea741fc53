import type { Role } from '../../contract/audit.ts';
import { Refusal } from '../http/refusal.ts';

/** Who is calling an /api/v2 endpoint, set by authenticateCaller before any handler runs. */
export interface Caller {
  accountId: string;
  username: string;
  role: Role;
  via: 'token' | 'apiKey';
  /** The entity data's version (change-counter.ts) read with the caller's account; absent in gateway mode. */
  entityDataVersion?: string;
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

/** Who may call a route (decisions.md "Roles"): reviewers read and act, auditors only read. */
export const READERS: readonly Role[] = ['reviewer', 'auditor'];
export const ACTORS: readonly Role[] = ['reviewer'];
export const AUDITORS: readonly Role[] = ['auditor'];

/** 403 unless the caller has one of these roles (decisions.md: the envelope, naming the role). */
export function requireRole(request: { caller?: Caller }, roles: readonly Role[]): Caller {
  const caller = callerOf(request);
  if (!roles.includes(caller.role)) {
    throw new Refusal(
      403,
      roles.length === 1 && roles[0] === 'auditor'
        ? 'Only an account with the auditor role can do this.'
        : `An account with the ${caller.role} role cannot do this: only ${roles.join(' or ')} accounts can.`,
      'role',
    );
  }
  return caller;
}
