import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { z } from 'zod';
import type { ErrorEnvelope } from '../../contract/common.ts';
import type {
  documentDetailResponseSchema,
  documentListResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  searchResponseSchema,
} from '../../contract/entities.ts';
import type {
  signOutResponseSchema,
  tokenResponseSchema,
  tokenValidResponseSchema,
} from '../../contract/auth.ts';
import {
  vendorDocumentDetail,
  vendorDocuments,
  vendorEntityList,
  vendorLegalEntities,
  vendorNotFound,
  vendorPersonDetail,
  vendorSuccess,
  VENDOR_DOCUMENT_OWNER,
  VENDOR_IDS,
} from '../../contract/testing/vendor-samples.ts';
import type {
  clientResponseResponseSchema,
  clientUpdateAcceptedResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
  clientUpdateRecordResponseSchema,
} from '../../contract/client-updates.ts';
import type { Capabilities, capabilitiesResponseSchema } from '../../contract/capabilities.ts';
import type { entityIndexResponseSchema } from '../../contract/entity-index.ts';
import type { reviewQueueResponseSchema, takeNextResponseSchema } from '../../contract/reviews.ts';
import type {
  assignmentResponseSchema,
  entityAssigneeResponseSchema,
  reviewerListResponseSchema,
} from '../../contract/assignment.ts';
import type { statsResponseSchema } from '../../contract/stats.ts';
import type {
  pendingVerificationListResponseSchema,
  pendingVerificationResponseSchema,
  confirmedDecisionResponseSchema,
  recordedPersonReviewResponseSchema,
  recordedVerificationResponseSchema,
  riskLevelChangedResponseSchema,
  waitingDecisionsPageSchema,
} from '../../contract/decisions.ts';
import type { envelopeSchema } from '../../contract/common.ts';
import type { documentMetadataSchema } from '../../contract/entities.ts';
import type { notePageSchema, noteResponseSchema } from '../../contract/notes.ts';
import type { auditEventPageSchema } from '../../contract/audit.ts';

/** Response bodies typed from the contract, so a handler cannot drift from the wire format. */
export interface ApiBodies {
  'GET /api/v2/entities': z.input<typeof entityListResponseSchema>;
  'GET /api/v2/entities/legal-entities': z.input<typeof searchResponseSchema>;
  'GET /api/v2/entities/legal-entities/:id': z.input<typeof legalEntityResponseSchema>;
  'POST /api/v2/entities/legal-entities': z.input<typeof legalEntityResponseSchema>;
  'GET /api/v2/entities/natural-persons': z.input<typeof searchResponseSchema>;
  'GET /api/v2/entities/natural-persons/:id': z.input<typeof naturalPersonResponseSchema>;
  'GET /api/v2/entities/:id/documents': z.input<typeof documentListResponseSchema>;
  'GET /api/v2/documents/:id': z.input<typeof documentDetailResponseSchema>;
  'POST /api/gettoken': z.input<typeof tokenResponseSchema>;
  'GET /api/tokenvalid': z.input<typeof tokenValidResponseSchema>;
  'POST /api/signout': z.input<typeof signOutResponseSchema>;
  'GET /api/capabilities': z.input<typeof capabilitiesResponseSchema>;
  'GET /api/v2/reviews': z.input<typeof reviewQueueResponseSchema>;
  'GET /api/v2/entity-index': z.input<typeof entityIndexResponseSchema>;
  'POST /api/v2/reviews/take-next': z.input<typeof takeNextResponseSchema>;
  'PUT /api/v2/entities/:id/assignee': z.input<typeof assignmentResponseSchema>;
  'GET /api/v2/entities/:id/assignee': z.input<typeof entityAssigneeResponseSchema>;
  'GET /api/v2/reviewers': z.input<typeof reviewerListResponseSchema>;
  'GET /api/v2/stats': z.input<typeof statsResponseSchema>;
  'GET /api/v2/pending-verifications': z.input<typeof waitingDecisionsPageSchema>;
  'GET /api/v2/client-update-configs': z.input<typeof clientUpdateConfigListResponseSchema>;
  'POST /api/v2/entities/legal-entities/:id/request-client-update': z.input<
    typeof clientUpdateAcceptedResponseSchema
  >;
  'GET /api/v2/entities/legal-entities/:id/client-update-requests': z.input<
    typeof clientUpdateHistoryResponseSchema
  >;
  'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/resend': z.input<
    typeof clientUpdateAcceptedResponseSchema
  >;
  'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/remind': z.input<
    typeof clientUpdateAcceptedResponseSchema
  >;
  'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/review': z.input<
    typeof clientUpdateRecordResponseSchema
  >;
  'GET /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/response': z.input<
    typeof clientResponseResponseSchema
  >;
  'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/response/contact': z.input<
    typeof clientResponseResponseSchema
  >;
  'POST /api/v2/entities/legal-entities/:id/verifications': z.input<
    typeof recordedVerificationResponseSchema
  >;
  'GET /api/v2/entities/legal-entities/:id/pending-verifications': z.input<
    typeof pendingVerificationListResponseSchema
  >;
  'POST /api/v2/pending-verifications/:id/confirm': z.input<typeof confirmedDecisionResponseSchema>;
  'GET /api/v2/entities/natural-persons/:id/pending-verifications': z.input<
    typeof pendingVerificationListResponseSchema
  >;
  'POST /api/v2/entities/natural-persons/:id/reviews': z.input<
    typeof recordedPersonReviewResponseSchema
  >;
  'PUT /api/v2/entities/:id/risk-level': z.input<typeof riskLevelChangedResponseSchema>;
  'POST /api/v2/pending-verifications/:id/reject': z.input<
    typeof pendingVerificationResponseSchema
  >;
  'PATCH /api/v2/documents/:id': z.input<
    ReturnType<typeof envelopeSchema<typeof documentMetadataSchema>>
  >;
  'GET /api/v2/entities/:id/notes': z.input<typeof notePageSchema>;
  'POST /api/v2/entities/:id/notes': z.input<typeof noteResponseSchema>;
  'GET /api/v2/audit-events': z.input<typeof auditEventPageSchema>;
  'GET /api/v2/entities/:id/audit-events': z.input<typeof auditEventPageSchema>;
}

type Route = keyof ApiBodies;

/**
 * A typed MSW handler: `apiHandler('GET /api/v2/entities', ({ request, params }) => body)`.
 * Return an ApiBodies body for 2xx, or `apiError(status, message)` for a failure.
 */
export function apiHandler<R extends Route>(
  route: R,
  resolve: (info: {
    request: Request;
    params: Record<string, string | readonly string[] | undefined>;
  }) =>
    ApiBodies[R] | HttpResponse<JsonBodyType> | Promise<ApiBodies[R] | HttpResponse<JsonBodyType>>,
  options: { status?: number } = {},
) {
  const [method, path] = route.split(' ') as [string, string];
  const factories: Record<string, typeof http.get | undefined> = {
    POST: http.post,
    PATCH: http.patch,
    PUT: http.put,
  };
  const factory = factories[method] ?? http.get;
  return factory(path, async (info) => {
    const result = await resolve({ request: info.request, params: info.params });
    if (result instanceof HttpResponse) return result;
    return HttpResponse.json(result as JsonBodyType, { status: options.status ?? 200 });
  });
}

export function envelope<T>(data: T, code = 200) {
  return { code, status: 'success' as const, message: '', data };
}

export function apiError(
  status: number,
  message: string,
  errors?: ErrorEnvelope['errors'],
  headers?: Record<string, string>,
) {
  const body: ErrorEnvelope = {
    code: status,
    status: 'error',
    message,
    data: [],
    ...(errors ? { errors } : {}),
  };
  return HttpResponse.json(body, { status, ...(headers ? { headers } : {}) });
}

/** The embedded server's capabilities for a reviewer; tests override parts with `capabilities()`. */
export function capabilities(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    mode: 'embedded',
    features: {
      reviewQueue: true,
      recordVerification: true,
      documentDecisions: true,
      notes: true,
      auditTrail: true,
      assignment: true,
      waitingForMe: true,
      overview: true,
      // The interface's list unless a test asks for the entity index.
      entityIndex: false,
    },
    fourEyes: 'high',
    account: { username: 'reviewer', role: 'reviewer' },
    ...overrides,
  };
}

/** Token validation succeeds by default, so pages under test stay signed in. */
export const defaultHandlers = [
  apiHandler('GET /api/tokenvalid', () => ({
    isTokenValid: true,
    expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  })),
  apiHandler('GET /api/capabilities', () => envelope(capabilities())),
  apiHandler('POST /api/signout', () => envelope({ revokedSessions: 1 })),
  // Who can be assigned: the signed-in reviewer and two others.
  apiHandler('GET /api/v2/reviewers', () =>
    envelope([
      { username: 'alex', name: 'Alex Reviewer' },
      { username: 'dana', name: 'Dana Reviewer' },
      { username: 'reviewer', name: 'Demo Reviewer' },
    ]),
  ),
  // Entity pages show these panels; no pending decision and no notes unless a test says so.
  apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', () => envelope([])),
  apiHandler('GET /api/v2/entities/natural-persons/:id/pending-verifications', () => envelope([])),
  apiHandler('GET /api/v2/entities/:id/notes', () => ({ ...envelope([]), nextCursor: null })),
  // The navigation counts what waits for the reviewer: nothing unless a test says so.
  apiHandler('GET /api/v2/pending-verifications', () => ({
    ...envelope([]),
    nextCursor: null,
    total: 0,
  })),
  // Every entity page shows its Activity; a page under test sees none unless it says otherwise.
  apiHandler('GET /api/v2/entities/:id/audit-events', () => ({
    ...envelope([]),
    nextCursor: null,
  })),
];

/** The real service's 404: status `failure` and data null (vendor-samples.ts). */
function vendorMissing(what: string) {
  return HttpResponse.json(vendorNotFound(what), { status: 404 });
}

/**
 * Every read endpoint answering with the real service's published samples (vendor-samples.ts),
 * unknown IDs with its `failure` envelope, as the console meets them through a gateway.
 */
export const vendorHandlers = [
  apiHandler('GET /api/v2/entities', () => vendorSuccess(vendorEntityList)),
  apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) => {
    const found = vendorLegalEntities.find((entity) => entity.id === params.id);
    return found ? vendorSuccess(found) : vendorMissing('legal entity');
  }),
  apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) =>
    params.id === VENDOR_IDS.person
      ? vendorSuccess(vendorPersonDetail)
      : vendorMissing('natural person'),
  ),
  apiHandler('GET /api/v2/entities/:id/documents', ({ params }) => {
    const known = vendorEntityList.some((entity) => entity.id === params.id);
    if (!known) return vendorMissing('entity');
    return vendorSuccess(params.id === VENDOR_DOCUMENT_OWNER ? vendorDocuments : []);
  }),
  apiHandler('GET /api/v2/documents/:id', ({ params }) =>
    params.id === VENDOR_IDS.document
      ? vendorSuccess(vendorDocumentDetail)
      : vendorMissing('document'),
  ),
];
