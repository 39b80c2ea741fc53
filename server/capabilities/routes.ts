import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { READERS } from '../auth/caller.ts';
import { capabilitiesResponseSchema, type Capabilities } from '../../contract/capabilities.ts';
import type { Config } from '../env.ts';
import { defineRoute } from '../http/route.ts';
import type { Role } from '../../contract/audit.ts';

/** What each mode offers: the gateway has no review endpoints upstream to record decisions on. */
function featuresOf(mode: Capabilities['mode']): Capabilities['features'] {
  const embedded = mode === 'embedded';
  return {
    reviewQueue: embedded,
    recordVerification: embedded,
    documentDecisions: embedded,
    notes: true,
    auditTrail: true,
    // Kept by the gateway in its own database in gateway mode, as notes are.
    assignment: true,
    waitingForMe: embedded,
    overview: embedded,
    entityIndex: embedded,
  };
}

export interface CapabilitiesPluginOptions {
  config: Config;
  /** Names the caller and its role. */
  whoIs: (request: FastifyRequest) => Promise<{ username: string; role: Role }>;
}

/** GET /api/capabilities for an authenticated caller; `whoIs` names the caller and role. */
export const capabilitiesPlugin: FastifyPluginCallback<CapabilitiesPluginOptions> = (
  app,
  { config, whoIs },
  done,
) => {
  const mode = config.upstream ? 'gateway' : 'embedded';
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/capabilities',
      summary: 'What this server offers, and who is asking',
      description:
        'The console shows only what the running mode supports: in gateway mode the identity service has no review queue, review outcomes or document decisions. `account` is the caller and its role (`auditor` may read the whole audit log).',
      tag: 'Authentication',
      auth: 'caller',
      roles: READERS,
      response: {
        status: 200,
        schema: capabilitiesResponseSchema,
        description: 'The features of this mode',
      },
    },
    async ({ request }) => ({
      mode,
      features: featuresOf(mode),
      fourEyes: config.fourEyes,
      account: await whoIs(request),
    }),
  );
  done();
};
