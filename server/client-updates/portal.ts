import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  CONTACT_FIELDS,
  type ClientResponse,
  type ContactDecision,
  type PortalSubmission,
} from '../../contract/client-updates.ts';
import { CLIENT_ACTOR_PREFIX } from '../../contract/audit.ts';
import { identifyFileType } from '../../contract/file-type.ts';
import { phoneProblemOf } from '../../contract/phone.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { documentMetadataOf } from '../documents/mappers.ts';
import { documentsRepository, type NewDocument } from '../documents/repository.ts';
import { refreshListRecords } from '../entities/read-model/list-records.ts';
import { ApiError } from '../http/errors.ts';
import type { AppServices } from '../services.ts';
import { PORTAL_TOKEN_PATTERN, hashPortalToken } from './portal-token.ts';
import {
  clientUpdatesRepository,
  type ClientUpdateRequestRow,
  type ContactFields,
  type PortalRequestRow,
} from './repository.ts';
import { stateAt } from './states.ts';

/** What the portal page shows for a link that works. */
export interface PortalView {
  subject: string;
  message: string;
  configName: string;
  configDescription: string;
  companyName: string;
  expiresAt: string;
  contact: { email: string | null; phone: string | null; address: string | null };
  /** Sent back with the answer: ties it to a page this server rendered for this link. */
  nonce: string;
}

/** The one refusal for a wrong, used or expired link: telling them apart would leak. */
export const LINK_GONE = 'This link no longer works. Ask the person who sent it for a new one.';

/** A recorded request of this legal entity, or the 404 that names what is missing. */
export async function findRequestOrThrow(
  repository: ReturnType<typeof clientUpdatesRepository>,
  entityId: string,
  requestId: string,
): Promise<ClientUpdateRequestRow> {
  if (!(await repository.legalEntityExists(entityId))) {
    throw new ApiError(404, `No legal entity with id ${entityId}.`);
  }
  const row = await repository.findRequest(entityId, requestId);
  if (!row) {
    throw new ApiError(404, `No client-update request ${requestId} for this legal entity.`);
  }
  return row;
}

/** The audit trail's actor for the client (decisions.md "Client responses"). */
export function clientActorOf(recipientId: string): string {
  return `${CLIENT_ACTOR_PREFIX}${recipientId}`;
}

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `YYYY-MM-DD HH:MM:SS` UTC, as documents' date_received. */
function dateReceivedOf(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

export function portalService(services: AppServices, auditTrail: AuditTrail) {
  const repository = clientUpdatesRepository(services.db);

  /** The page's nonce: bound to the link, unforgeable without the server's signing key. */
  const nonceOf = (tokenHash: string) =>
    createHmac('sha256', services.signingKey).update(`portal:${tokenHash}`).digest('base64url');

  /** The request a link opens while it still takes an answer; undefined otherwise. */
  async function usableRequest(token: string): Promise<PortalRequestRow | undefined> {
    if (!PORTAL_TOKEN_PATTERN.test(token)) return undefined;
    const row = await repository.findByTokenHash(hashPortalToken(token));
    if (!row) return undefined;
    const state = stateAt(row.state, row.expires_at, services.now());
    return state === 'sent' || state === 'opened' ? row : undefined;
  }

  return {
    /** The page's content, and `sent` → `opened` the first time; undefined for a link that is gone. */
    async open(
      token: string,
      request: { requestId: string; clientAddress: string },
    ): Promise<PortalView | undefined> {
      const row = await usableRequest(token);
      if (!row) return undefined;
      const at = services.now().toISOString();
      if (await repository.markOpened(row.id, at)) {
        await auditTrail.record({
          actor: clientActorOf(row.recipient_id),
          action: 'client-update.open',
          entityId: row.entity_id,
          requestId: request.requestId,
          clientAddress: request.clientAddress,
          detail: { requestId: row.id },
        });
      }
      return {
        subject: row.subject,
        message: row.message,
        configName: row.config_name ?? '',
        configDescription: row.config_description ?? '',
        companyName: row.company_name ?? '',
        expiresAt: row.expires_at ?? '',
        contact: { email: row.person_email, phone: row.person_phone, address: row.person_address },
        nonce: nonceOf(hashPortalToken(token)),
      };
    },

    /** True when `nonce` is the one the page for this token carries (constant time). */
    nonceMatches(token: string, nonce: string | undefined): boolean {
      if (!nonce || !PORTAL_TOKEN_PATTERN.test(token)) return false;
      const expected = Buffer.from(nonceOf(hashPortalToken(token)));
      const given = Buffer.from(nonce);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },

    /**
     * Stores the answer once: the request moves to `submitted` in the same transaction as its
     * documents (marked as the client's) and its corrections, so a second submission stores nothing.
     */
    async submit(
      token: string,
      body: PortalSubmission,
      request: { requestId: string; clientAddress: string },
    ) {
      const row = await usableRequest(token);
      if (!row) throw new ApiError(404, LINK_GONE);
      const contact: ContactFields = body.contact ?? {};
      const phoneCountry = row.person_country ?? row.entity_country;
      if (contact.phone !== undefined && phoneCountry) {
        const problem = phoneProblemOf(contact.phone, phoneCountry);
        if (problem) {
          throw new ApiError(400, `Invalid field contact.phone: ${problem}`, [
            { field: 'contact.phone', message: problem },
          ]);
        }
      }
      const now = services.now();
      const at = now.toISOString();
      const documents = body.documents.map((document): NewDocument => {
        const bytes = Buffer.from(document.file, 'base64');
        return {
          bytes,
          row: {
            id: randomUUID(),
            entity_id: row.entity_id,
            file_name: document.fileName,
            type: document.type,
            description: document.description ?? null,
            date_received: dateReceivedOf(now),
            approved: 0,
            // The bytes decide (the schema refused anything but a document).
            mime_type: identifyFileType(bytes).mimeType,
            file_size: bytes.length,
            sha256: sha256Hex(bytes),
            client_request_id: row.id,
          },
        };
      });
      const contactFields = CONTACT_FIELDS.filter((field) => contact[field] !== undefined);
      await repository.inTransaction(async (transaction) => {
        const bound = clientUpdatesRepository(transaction);
        // Guarded by state and expiry: of two submissions racing, one moves it and the other stores nothing.
        if (!(await bound.markSubmitted(row.id, at))) throw new ApiError(404, LINK_GONE);
        await bound.insertResponse({
          request_id: row.id,
          entity_id: row.entity_id,
          recipient_id: row.recipient_id,
          contact: contactFields.length > 0 ? JSON.stringify(contact) : null,
          submitted_at: at,
          contact_outcome: null,
          contact_decided_by: null,
          contact_decided_at: null,
        });
        await documentsRepository(transaction).insertMany(documents, services.documentKeys);
        if (documents.length > 0) await refreshListRecords(transaction, [row.entity_id]);
        await auditTrail.recordIn(transaction, {
          actor: clientActorOf(row.recipient_id),
          action: 'client-update.submit',
          entityId: row.entity_id,
          requestId: request.requestId,
          clientAddress: request.clientAddress,
          detail: {
            requestId: row.id,
            documents: documents.map((document) => ({
              documentId: document.row.id,
              fileName: document.row.file_name,
              type: document.row.type,
            })),
            contactFields,
          },
        });
      });
      return { submittedAt: at, documents: documents.length, contactFields };
    },
  };
}

/** A request of this legal entity, or 404. */

function proposedOf(contact: string | null): ContactFields {
  return contact === null ? {} : (JSON.parse(contact) as ContactFields);
}

/** A reviewer's view of a client's answer: corrections as a diff against the record as it is now. */
export async function clientResponseOf(
  services: AppServices,
  entityId: string,
  requestId: string,
): Promise<ClientResponse> {
  await findRequestOrThrow(clientUpdatesRepository(services.db), entityId, requestId);
  const repository = clientUpdatesRepository(services.db);
  const response = await repository.findResponse(requestId);
  if (!response) throw new ApiError(404, 'The client has not answered this request.');
  const [person, documents] = await Promise.all([
    repository.findContactOf(response.recipient_id),
    repository.listClientDocuments(requestId),
  ]);
  const proposed = proposedOf(response.contact);
  return {
    requestId,
    recipientId: response.recipient_id,
    submittedAt: response.submitted_at,
    contact: CONTACT_FIELDS.flatMap((field) => {
      const value = proposed[field];
      return value === undefined
        ? []
        : [{ field, current: person?.[field] ?? null, proposed: value }];
    }),
    contactOutcome: response.contact_outcome,
    contactDecidedBy: response.contact_decided_by,
    contactDecidedAt: response.contact_decided_at,
    documents: documents.map(documentMetadataOf),
  };
}

/**
 * Applies the client's corrections to the person's record or dismisses them, once, audited in the
 * same transaction; a second decision is 409.
 */
export async function decideContact(
  services: AppServices,
  entityId: string,
  requestId: string,
  decision: ContactDecision,
  context: {
    by: string;
    audit: (transaction: AppServices['db'], detail: Record<string, unknown>) => Promise<void>;
  },
): Promise<ClientResponse> {
  await findRequestOrThrow(clientUpdatesRepository(services.db), entityId, requestId);
  const repository = clientUpdatesRepository(services.db);
  const response = await repository.findResponse(requestId);
  if (!response?.contact) {
    throw new ApiError(
      404,
      'The client proposed no correction of contact details with this request.',
    );
  }
  const proposed = proposedOf(response.contact);
  const outcome = decision.action === 'apply' ? 'applied' : 'dismissed';
  await repository.inTransaction(async (transaction) => {
    const bound = clientUpdatesRepository(transaction);
    const before = await bound.findContactOf(response.recipient_id);
    const decided = await bound.decideContact(requestId, {
      outcome,
      by: context.by,
      at: services.now().toISOString(),
    });
    if (!decided) {
      throw new ApiError(
        409,
        `These corrections were ${response.contact_outcome ?? 'decided'} already; nothing changed.`,
      );
    }
    if (outcome === 'applied') {
      await bound.updatePersonContact(response.recipient_id, proposed, before?.country ?? null);
      await refreshListRecords(transaction, [response.recipient_id, entityId]);
    }
    await context.audit(transaction, {
      requestId,
      outcome,
      personId: response.recipient_id,
      changes: CONTACT_FIELDS.flatMap((field) =>
        proposed[field] === undefined
          ? []
          : [{ field, from: before?.[field] ?? null, to: proposed[field] }],
      ),
    });
  });
  return clientResponseOf(services, entityId, requestId);
}
