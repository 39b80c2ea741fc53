/** Who is calling an /api/v2 endpoint, set by authenticateCaller before any handler runs. */
export interface Caller {
  accountId: string;
  username: string;
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
