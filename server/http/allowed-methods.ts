import type { FastifyInstance, RouteOptions } from 'fastify';

/** Which methods a concrete path answers to; empty when the path is unknown. */
export type AllowedMethodsOf = (pathname: string) => readonly string[];

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once on the root instance: consulted by sendPathNotFound for its 405. */
    allowedMethodsOf: AllowedMethodsOf;
  }
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function patternOf(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/**
 * Register before any route: remembers every route's method and path (wildcards aside) so a
 * wrong method on a known path is 405 with `Allow` rather than 404. `extra` adds methods the
 * router cannot see (the gateway's allow-list behind its one wildcard route).
 */
export function installAllowedMethods(app: FastifyInstance, extra?: AllowedMethodsOf): void {
  const routes: { methods: readonly string[]; pattern: RegExp; route: RouteOptions }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ methods: methods.map(String), pattern: patternOf(route.url), route });
  });
  app.decorate('allowedMethodsOf', (pathname: string) => {
    const found = new Set<string>(extra?.(pathname) ?? []);
    for (const { methods, pattern, route } of routes) {
      // Read when asked: a scope's own onRoute hook may constrain the route after this one ran.
      if (Object.keys(route.constraints ?? {}).length > 0) continue;
      if (pattern.test(pathname)) for (const method of methods) found.add(method);
    }
    return HTTP_METHODS.filter((method) => found.has(method));
  });
}
