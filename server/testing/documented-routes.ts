import type { TestServer } from './harness.ts';

/** One operation the running mode documents at /api/openapi.json that needs credentials. */
export interface DocumentedRoute {
  /** `METHOD /path`, the path as OpenAPI writes it (`{id}`). */
  route: string;
  method: string;
  /** Its `x-roles`; undefined for routes whose own credential check is the route itself. */
  roles: string[] | undefined;
}

/** The routes with credentials the running mode documents: the tables of route tests start here. */
export async function documentedRoutes(server: TestServer): Promise<DocumentedRoute[]> {
  const document = (await server.request('/api/openapi.json', { auth: 'none' })).body as {
    paths: Record<string, Record<string, { security: unknown[]; 'x-roles'?: string[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.security.length > 0)
      .map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        roles: operation['x-roles'],
      })),
  );
}
