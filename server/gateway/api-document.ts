import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authPlugin } from '../auth/routes.ts';
import type { Db } from '../db/database.ts';
import { documentKeysOf, masterKeyOf } from '../documents/document-crypto.ts';
import { documentsPlugin } from '../documents/routes.ts';
import { entitiesPlugin } from '../entities/routes.ts';
import type { Config } from '../env.ts';

type ConstraintStore = ReturnType<
  Parameters<FastifyInstance['addConstraintStrategy']>[0]['storage']
>;
type StoredHandler = NonNullable<ReturnType<ConstraintStore['get']>>;

/** The route constraint of declarations only: no request ever satisfies it. */
export const DOCUMENT_ONLY = 'documentOnly';

/**
 * The gateway publishes the API it forwards with the embedded server's own declarations: the
 * resources are registered in the live app under a constraint no request satisfies, so
 * @fastify/swagger sees them while every request still reaches the relay's wildcard route. The
 * gateway's own resources (notes, client updates, assignment) are its live plugins, documented as
 * registered. These handlers never run, so their keys are throwaway.
 */
export async function declareForwardedRoutes(
  app: FastifyInstance,
  config: Config,
  db: Db,
): Promise<void> {
  app.addConstraintStrategy({
    name: DOCUMENT_ONLY,
    storage(): ConstraintStore {
      const stores = new Map<unknown, StoredHandler>();
      return {
        get: (value) => stores.get(value) ?? null,
        set: (value, handler) => {
          stores.set(value, handler);
        },
      };
    },
    deriveConstraint: () => undefined,
    mustMatchWhenDerived: false,
  });
  const services = {
    config: { ...config, smtpUrl: undefined },
    db,
    signingKey: crypto.randomBytes(32),
    documentKeys: documentKeysOf(masterKeyOf(crypto.randomBytes(32), 'a throwaway key')),
    now: () => new Date(),
  };
  await app.register(async (declarations) => {
    declarations.addHook('onRoute', (route) => {
      route.constraints = { ...route.constraints, [DOCUMENT_ONLY]: true };
    });
    await declarations.register(authPlugin, { services, prefix: '/api' });
    await declarations.register(
      async (v2) => {
        await v2.register(entitiesPlugin, { services });
        await v2.register(documentsPlugin, { services });
      },
      { prefix: '/api/v2' },
    );
  });
}
