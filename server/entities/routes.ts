import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  entityListQuerySchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  legalEntitySearchQuerySchema,
  MAX_DOCUMENT_BYTES,
  naturalPersonResponseSchema,
  naturalPersonSearchQuerySchema,
  searchResponseSchema,
  utcDateOf,
} from '../../contract/entities.ts';
import { legalEntityCreateSchemaFor } from '../../contract/legal-entity-create.ts';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import { parseOrThrow } from '../http/errors.ts';
import { requireJsonBodyPresent } from '../http/json-body.ts';
import { idParamsSchema } from '../http/params.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { legalEntityCreatedResponseSchema } from '../../contract/decisions.ts';
import {
  CREATED_STATUS,
  createdEnvelopeOf,
  createLegalEntity,
  requestHashOf,
} from './create-legal-entity.ts';
import { MAX_SEARCH_RESULTS } from './read-model/dialect.ts';
import { listOrderOf, listPage } from './read-model/list-page.ts';
import { createListPositions } from './read-model/list-positions.ts';
import { createResponseCache, sendCachedEnvelope } from './read-model/response-cache.ts';
import { search } from './read-model/search.ts';
import { getLegalEntity, getNaturalPerson } from './service.ts';

/**
 * Room for four 10 MB documents in base64 plus the rest of the payload; twenty such documents
 * (about 280 MB of JSON) would have to be held in memory at once, so larger sets are sent in parts.
 */
export const CREATE_BODY_LIMIT = 64 * 1024 * 1024;

const idempotencyHeaderSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1, 'Idempotency-Key must not be empty.')
    .max(200, 'Idempotency-Key can be at most 200 characters.')
    .optional(),
});

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return parseOrThrow(idempotencyHeaderSchema, { 'Idempotency-Key': header }, 'header')[
    'Idempotency-Key'
  ];
}

export interface EntitiesPluginOptions {
  services: AppServices;
}

export const entitiesPlugin: FastifyPluginCallback<EntitiesPluginOptions> = (
  app,
  { services },
  done,
) => {
  const { db } = services;
  const cache = createResponseCache(db);
  const positions = createListPositions();

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities',
      summary: 'List entities',
      description:
        'Natural persons and legal entities by creation time, then id; ascending unless descending=true. Legal entities carry corporateVerifications and supportingDocuments (metadata) only when their flag is true.',
      tag: 'Entities',
      auth: 'caller',
      roles: READERS,
      query: entityListQuerySchema,
      audit: { action: 'entity.list', targetOf: ({ query }) => ({ detail: { query } }) },
      response: {
        status: 200,
        schema: entityListResponseSchema,
        description: 'One page of entities',
      },
      errors: [400],
    },
    ({ query, reply }) =>
      sendCachedEnvelope(reply, cache, `list ${JSON.stringify(query)}`, (version) =>
        listPage(db, query, positions.at(version, listOrderOf(query))),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/legal-entities',
      summary: 'Search legal entities',
      description: `IDs of the legal entities matching every given parameter (AND), oldest first, at most ${MAX_SEARCH_RESULTS}. Text is compared folded (NFKC, then full Unicode case folding). companyName: substring; registrationNumber: exact, ignoring spaces, dashes, dots and slashes; glei, externalID: exact; duns: ignoring leading zeros; phone: digits only; email: the primary contact's, exact.`,
      tag: 'Entities',
      auth: 'caller',
      roles: READERS,
      query: legalEntitySearchQuerySchema,
      audit: {
        action: 'entity.search',
        targetOf: ({ query }) => ({ detail: { collection: 'legal-entities', query } }),
      },
      response: {
        status: 200,
        schema: searchResponseSchema,
        description: 'Matching legal-entity IDs',
      },
      errors: [400],
    },
    ({ query, reply }) =>
      sendCachedEnvelope(reply, cache, `search ${JSON.stringify(query)}`, () =>
        search(db, { type: 'legal-entities', query }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/legal-entities/:id',
      summary: 'Get a legal entity',
      description:
        'With its corporateVerifications, supportingDocuments (metadata), linkedEntities (primary contact first) and kycMetaData.',
      tag: 'Entities',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      audit: { action: 'entity.view', targetOf: ({ params }) => ({ entityId: params.id }) },
      response: { status: 200, schema: legalEntityResponseSchema, description: 'The legal entity' },
      errors: [404],
    },
    ({ params, reply }) =>
      sendCachedEnvelope(reply, cache, `legal ${params.id}`, () => getLegalEntity(db, params.id)),
  );

  // The collection path; `/entities/natural-persons/:id` below is one person.
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/natural-persons',
      summary: 'Search natural persons',
      description: `IDs of the natural persons matching every given parameter (AND), oldest first, at most ${MAX_SEARCH_RESULTS}. Text is compared folded (NFKC, then full Unicode case folding). firstName, lastName: substring; email, externalID: exact; phone: digits only.`,
      tag: 'Entities',
      auth: 'caller',
      roles: READERS,
      query: naturalPersonSearchQuerySchema,
      audit: {
        action: 'entity.search',
        targetOf: ({ query }) => ({ detail: { collection: 'natural-persons', query } }),
      },
      response: {
        status: 200,
        schema: searchResponseSchema,
        description: 'Matching natural-person IDs',
      },
      errors: [400],
    },
    ({ query, reply }) =>
      sendCachedEnvelope(reply, cache, `person-search ${JSON.stringify(query)}`, () =>
        search(db, { type: 'natural-persons', query }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/natural-persons/:id',
      summary: 'Get a natural person',
      description:
        'With kycMetaData, personalInformation (linkedEntities: the legal entities the person is tied to) and supportingDocuments (metadata).',
      tag: 'Entities',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      audit: { action: 'entity.view', targetOf: ({ params }) => ({ entityId: params.id }) },
      response: {
        status: 200,
        schema: naturalPersonResponseSchema,
        description: 'The natural person',
      },
      errors: [404],
    },
    ({ params, reply }) =>
      sendCachedEnvelope(reply, cache, `person ${params.id}`, () =>
        getNaturalPerson(db, params.id),
      ),
  );

  // Its own context so that the JSON-only hook and the larger body limit touch no other route.
  void app.register((create, _options, done) => {
    create.addHook('onRequest', requireJsonBodyPresent);
    defineRoute(
      create,
      {
        method: 'POST',
        url: '/entities/legal-entities',
        summary: 'Create a legal entity',
        description: `JSON body of at most ${CREATE_BODY_LIMIT / 1024 / 1024} MB; each document at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB. The primary contact becomes a natural person linked as Primary Contact. Dates (UTC, the server's clock): dateofIncorporation and each verificationDate not after today, each nextReviewDate after its verificationDate. Phones (companyPhone, primaryContact.phone) must be valid numbers: in international form (+…) as such, otherwise as dialled in corporateInformation.country; stored as entered. kycStatus and nextKYCReview are the newest verification's (by verificationDate, then the order given). Same registrationNumber (ignoring case, spaces, dashes, dots and slashes) and country as an existing entity: 409. riskLevel (Low, Medium, High; default Medium) drives the four-eyes rule: when the newest verification is Accepted and FOUR_EYES holds it (all; or high with riskLevel High), the entity is created in Review and the answer carries pendingVerification, the acceptance a second account confirms or rejects at /pending-verifications/{id}. An Idempotency-Key header (at most 200 characters) makes a retry with the same body return the first response and create nothing; the same key with another body: 422.`,
        tag: 'Entities',
        auth: 'caller',
        roles: ACTORS,
        // Today is the server's clock, read at each request (tests inject one).
        body: legalEntityCreateSchemaFor(() => utcDateOf(services.now())),
        headers: idempotencyHeaderSchema,
        bodyLimit: CREATE_BODY_LIMIT,
        audit: { action: 'entity.create' },
        response: {
          status: CREATED_STATUS,
          schema: legalEntityCreatedResponseSchema,
          description:
            'The created legal entity (with pendingVerification when its acceptance is held)',
        },
        errors: [400, 409, 413, 415, 422],
      },
      async ({ body, rawBody, request, reply, audit }) => {
        const key = idempotencyKeyOf(request);
        const outcome = await createLegalEntity(
          services,
          body,
          key === undefined
            ? undefined
            : {
                accountId: callerOf(request).accountId,
                key,
                requestHash: requestHashOf(rawBody),
              },
          callerOf(request),
          (transaction, entity, pendingVerification) =>
            audit.record(
              {
                entityId: entity.id,
                detail: {
                  companyName: entity.corporateInformation.companyName,
                  riskLevel: body.riskLevel,
                  ...(pendingVerification ? { heldAcceptance: pendingVerification.id } : {}),
                },
              },
              transaction,
            ),
        );
        if (outcome.kind === 'created' && !outcome.pendingVerification) return outcome.entity;
        if (outcome.kind === 'created') {
          await reply
            .code(CREATED_STATUS)
            .send(createdEnvelopeOf(outcome.entity, outcome.pendingVerification));
          return undefined;
        }
        await audit.record({ detail: { idempotentReplay: true } });
        await reply
          .code(outcome.statusCode)
          .header('Idempotent-Replayed', 'true')
          .type('application/json; charset=utf-8')
          .send(outcome.body);
        return undefined;
      },
    );
    done();
  });
  done();
};
