import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  confirmedDecisionResponseSchema,
  documentDecisionSchema,
  pendingVerificationListResponseSchema,
  pendingVerificationResponseSchema,
  personReviewInputSchema,
  personReviewListResponseSchema,
  recordedPersonReviewResponseSchema,
  recordedVerificationResponseSchema,
  recordVerificationSchemaFor,
  rejectPendingVerificationSchema,
  riskLevelChangedResponseSchema,
  riskLevelChangeSchema,
  WAITING_PAGE_DEFAULT,
  WAITING_PAGE_MAX,
  waitingDecisionsPageSchema,
  waitingDecisionsQuerySchema,
} from '../../contract/decisions.ts';
import { envelopeSchema } from '../../contract/common.ts';
import { documentMetadataSchema, utcDateOf } from '../../contract/entities.ts';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import { requireJsonBody } from '../http/json-body.ts';
import { idParamsSchema } from '../http/params.ts';
import { auditInTransaction, defineRoute, type RouteAudit } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { personReviewsOf, recordPersonReview } from './person-reviews.ts';
import { changeRiskLevel } from './risk-level.ts';
import { waitingDecisionsPage } from './waiting.ts';
import {
  confirmPending,
  decideDocument,
  pendingOfEntity,
  recordOutcome,
  rejectPending,
  type DecisionContext,
} from './service.ts';

const FOUR_EYES_TEXT =
  'With FOUR_EYES=high (the default) an Accepted outcome for a High-risk entity waits for a second reviewer; with all, every Accepted outcome does; with off, none.';

/** A held risk change is accepted for a second reviewer but not done yet. */
const RISK_CHANGE_HELD_STATUS = 202;

/** Decisions take no body but a reason; an empty JSON object is accepted where none is needed. */
const noBodySchema = z.strictObject({});

export interface DecisionsPluginOptions {
  services: AppServices;
}

/** Review outcomes, four-eyes confirmation and document decisions (docs/reviews-decisions.md). */
export const decisionsPlugin: FastifyPluginCallback<DecisionsPluginOptions> = (
  app,
  { services },
  done,
) => {
  // Each change appends the route's audit event inside its own transaction.
  const contextOf = (request: FastifyRequest, audit: RouteAudit): DecisionContext => ({
    db: services.db,
    now: services.now,
    fourEyes: services.config.fourEyes,
    caller: callerOf(request),
    audit: auditInTransaction(audit),
  });

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/legal-entities/:id/pending-verifications',
      summary: 'Decisions waiting for a second reviewer',
      description: `The legal entity's decisions held for confirmation (at most one, of any kind: an outcome, or a risk change). ${FOUR_EYES_TEXT}`,
      tag: 'Decisions',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      response: {
        status: 200,
        schema: pendingVerificationListResponseSchema,
        description: 'Pending decisions, oldest first',
      },
      errors: [404],
    },
    ({ params }) => pendingOfEntity(services.db, params.id),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/natural-persons/:id/pending-verifications',
      summary: "A person's decisions waiting for a second reviewer",
      description: `The natural person's decisions held for confirmation (at most one: a review, or a risk change). ${FOUR_EYES_TEXT}`,
      tag: 'Decisions',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      response: {
        status: 200,
        schema: pendingVerificationListResponseSchema,
        description: 'Pending decisions, oldest first',
      },
      errors: [404],
    },
    ({ params }) => pendingOfEntity(services.db, params.id, 'person'),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/natural-persons/:id/reviews',
      summary: "A natural person's reviews",
      description:
        'Newest first, with their state: applied, pending (held for a second reviewer) or rejected.',
      tag: 'Decisions',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      response: {
        status: 200,
        schema: personReviewListResponseSchema,
        description: 'The reviews, newest first',
      },
      errors: [404],
    },
    ({ params }) => personReviewsOf(services.db, params.id),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/pending-verifications',
      summary: 'Decisions waiting for my confirmation',
      description: `Held decisions of every entity that the caller may confirm or reject: recorded by another account, oldest first, each with the entity's name and type. limit 1..${WAITING_PAGE_MAX} (${WAITING_PAGE_DEFAULT}); cursor: the nextCursor of the previous page. total: all of them, for a count. An auditor confirms nothing: the list is empty for one.`,
      tag: 'Decisions',
      auth: 'caller',
      roles: READERS,
      query: waitingDecisionsQuerySchema,
      response: {
        status: 200,
        schema: waitingDecisionsPageSchema,
        description: 'One page of the decisions waiting for the caller, oldest first',
      },
      errors: [400],
      bare: true,
    },
    ({ query, request }) => waitingDecisionsPage(services.db, callerOf(request), query),
  );

  // Its own context so that the JSON-only hook touches no other route.
  void app.register((writes, _options, done) => {
    writes.addHook('onRequest', requireJsonBody);

    defineRoute(
      writes,
      {
        method: 'POST',
        url: '/entities/legal-entities/:id/verifications',
        summary: 'Record a review outcome',
        description: `A verification without id. It is appended to corporateVerifications; the entity's kycStatus and nextKYCReview follow its newest verification (by verificationDate, then the order recorded), so an outcome dated before the newest one changes neither. verificationDate cannot be after today (UTC, the server's clock) and nextReviewDate must be after it. ${FOUR_EYES_TEXT} A held outcome answers 201 with state "pending" and leaves the entity unchanged. While a decision waits, another outcome is 409.`,
        tag: 'Decisions',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: recordVerificationSchemaFor(() => utcDateOf(services.now())),
        response: {
          status: 201,
          schema: recordedVerificationResponseSchema,
          description: 'Applied, or held for a second reviewer',
        },
        errors: [400, 404, 409, 415],
        audit: {
          action: 'verification.record',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ entityId: params.id }),
        },
      },
      ({ params, body, request, audit }) =>
        recordOutcome(contextOf(request, audit), params.id, body),
    );

    defineRoute(
      writes,
      {
        method: 'POST',
        url: '/entities/natural-persons/:id/reviews',
        summary: "Record a natural person's review",
        description: `{ kycStatus, nextKYCReview, reason }: sets the person's kycStatus and nextKYCReview (which must be after today, UTC). ${FOUR_EYES_TEXT} A held review answers 201 with state "pending" and the decision to confirm, and leaves the person unchanged. While a decision waits, another is 409.`,
        tag: 'Decisions',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: personReviewInputSchema,
        response: {
          status: 201,
          schema: recordedPersonReviewResponseSchema,
          description: 'Applied, or held for a second reviewer',
        },
        errors: [400, 404, 409, 415],
        audit: {
          action: 'person.review',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ entityId: params.id }),
        },
      },
      ({ params, body, request, audit }) =>
        recordPersonReview(contextOf(request, audit), params.id, body),
    );

    defineRoute(
      writes,
      {
        method: 'PUT',
        url: '/entities/:id/risk-level',
        summary: 'Change the risk level',
        description: `{ riskLevel, reason } on a legal entity or a natural person: 200 with state "applied" and the kycMetaData. Lowering it from High waits for a second reviewer unless FOUR_EYES=off: ${RISK_CHANGE_HELD_STATUS} with state "pending", the unchanged kycMetaData and the decision to confirm. The same level again changes nothing. While a decision waits, another is 409.`,
        tag: 'Decisions',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: riskLevelChangeSchema,
        response: {
          status: 200,
          schema: riskLevelChangedResponseSchema,
          description: `Applied (200), or held for a second reviewer (${RISK_CHANGE_HELD_STATUS})`,
          otherStatuses: [RISK_CHANGE_HELD_STATUS],
        },
        errors: [400, 404, 409, 415],
        audit: {
          action: 'entity.risk-level',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ entityId: params.id }),
        },
      },
      async ({ params, body, request, reply, audit }) => {
        const changed = await changeRiskLevel(contextOf(request, audit), params.id, body);
        if (changed.state === 'applied') return changed;
        await reply
          .code(RISK_CHANGE_HELD_STATUS)
          .send({ code: RISK_CHANGE_HELD_STATUS, status: 'success', message: '', data: changed });
        return undefined;
      },
    );

    defineRoute(
      writes,
      {
        method: 'POST',
        url: '/pending-verifications/:id/confirm',
        summary: 'Confirm a held decision',
        description:
          'Another account than the one that recorded it confirms the decision (an outcome, a person review or a risk change, by its kind), which then applies as if recorded now. Its own author: 403 (four-eyes rule). Already confirmed or rejected: 409.',
        tag: 'Decisions',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: noBodySchema,
        response: {
          status: 200,
          schema: confirmedDecisionResponseSchema,
          description: 'What was applied: the outcome, the person review or the risk level',
        },
        errors: [403, 404, 409, 415],
        audit: {
          action: 'verification.confirm',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ detail: { decisionId: params.id } }),
        },
      },
      ({ params, request, audit }) => confirmPending(contextOf(request, audit), params.id),
    );

    defineRoute(
      writes,
      {
        method: 'POST',
        url: '/pending-verifications/:id/reject',
        summary: 'Reject a held decision',
        description:
          'Another account than the one that recorded it discards the decision, with a reason (1 to 1000 characters); the entity stays as it was. Its own author: 403 (four-eyes rule). Already confirmed or rejected: 409.',
        tag: 'Decisions',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: rejectPendingVerificationSchema,
        response: {
          status: 200,
          schema: pendingVerificationResponseSchema,
          description: 'The discarded decision',
        },
        errors: [400, 403, 404, 409, 415],
        audit: {
          action: 'verification.reject',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ detail: { decisionId: params.id } }),
        },
      },
      ({ params, body, request, audit }) =>
        rejectPending(contextOf(request, audit), params.id, body.reason),
    );

    defineRoute(
      writes,
      {
        method: 'PATCH',
        url: '/documents/:id',
        summary: 'Approve or reject a document',
        description:
          'documentApproved true approves, false rejects; a rejection needs a reason (1 to 1000 characters). Who decided, when and why are kept and shown as the document\'s "decision"; a later decision replaces it.',
        tag: 'Decisions',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: documentDecisionSchema,
        response: {
          status: 200,
          schema: envelopeSchema(documentMetadataSchema),
          description: "The document's metadata with the decision",
        },
        errors: [400, 404, 415],
        audit: {
          action: 'document.decide',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ documentId: params.id }),
        },
      },
      ({ params, body, request, audit }) =>
        decideDocument(contextOf(request, audit), params.id, body),
    );
    done();
  });
  done();
};
