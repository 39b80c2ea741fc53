import crypto from 'node:crypto';
import {
  currentVerificationOf,
  newestVerificationOf,
} from '../../contract/current-verification.ts';
import { digitsOnly } from '../../contract/identifiers.ts';
import type { PendingVerification } from '../../contract/decisions.ts';
import { DEFAULT_RISK_LEVEL, type LegalEntity } from '../../contract/entities.ts';
import type { LegalEntityCreate } from '../../contract/legal-entity-create.ts';
import { identifyFileType } from '../../contract/file-type.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { fourEyesRuleOf, holdDecision } from '../decisions/service.ts';
import type { EntityInput, VerificationRow } from '../db/schema.ts';
import { documentsRepository, type NewDocument } from '../documents/repository.ts';
import { ApiError } from '../http/errors.ts';
import type { AppServices } from '../services.ts';
import { entitiesRepository, type NewLegalEntity } from './repository.ts';
import { refreshListRecords } from './read-model/list-records.ts';
import { getLegalEntity } from './service.ts';

export const CREATED_STATUS = 201;

/** An onboarding whose acceptance waits for a second reviewer starts in this status. */
const HELD_ONBOARDING_STATUS = 'Review';

export interface Idempotency {
  accountId: string;
  key: string;
  /** sha256 of the request body, to tell a retry from a different request under the same key. */
  requestHash: string;
}

export type CreateOutcome =
  | { kind: 'created'; entity: LegalEntity; pendingVerification?: PendingVerification }
  | { kind: 'replayed'; statusCode: number; body: string };

/** The create answer: the interface's envelope, plus the held acceptance when there is one. */
export function createdEnvelopeOf(entity: LegalEntity, pendingVerification?: PendingVerification) {
  return {
    code: CREATED_STATUS,
    status: 'success' as const,
    message: pendingVerification
      ? 'Created in Review: its acceptance waits for a second reviewer (four-eyes).'
      : '',
    data: entity,
    ...(pendingVerification ? { pendingVerification } : {}),
  };
}

/** Which verification onboarding holds for a second reviewer: an Accepted newest one under FOUR_EYES. */
interface HeldAcceptance {
  index: number;
  rule: 'high' | 'all';
}

function heldAcceptanceOf(
  input: LegalEntityCreate,
  fourEyes: AppServices['config']['fourEyes'],
): HeldAcceptance | undefined {
  const verifications = input.corporateVerifications ?? [];
  const newest = newestVerificationOf(verifications);
  if (!newest) return undefined;
  const index = verifications.indexOf(newest);
  const rule = fourEyesRuleOf(fourEyes, newest.verificationStatus, input.riskLevel);
  return rule === undefined ? undefined : { index, rule };
}

const sha256Hex = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');

export function requestHashOf(body: unknown): string {
  return sha256Hex(JSON.stringify(body));
}

function recordsOf(
  input: LegalEntityCreate,
  now: Date,
  held: HeldAcceptance | undefined,
): { records: NewLegalEntity; documents: NewDocument[] } {
  const createdAt = now.toISOString();
  const today = createdAt.slice(0, 10);
  const dateReceived = `${today} ${createdAt.slice(11, 19)}`;
  const info = input.corporateInformation;
  // A held acceptance is not stored as a verification until a second reviewer confirms it.
  const storedVerifications = (input.corporateVerifications ?? []).filter(
    (_verification, index) => index !== held?.index,
  );
  // Overdue dates are kept: an entity reviewed late must show as overdue and enter the queue.
  const current = currentVerificationOf(storedVerifications);
  const entity: EntityInput = {
    id: crypto.randomUUID(),
    kind: 'legal',
    created_at: createdAt,
    external_id: input.externalID ?? null,
    kyc_status: held ? HELD_ONBOARDING_STATUS : (current?.kycStatus ?? 'New'),
    risk_level: input.riskLevel,
    last_update: createdAt,
    next_kyc_review: current?.nextKYCReview ?? null,
    tags: '[]',
  };
  const companyPhone = info.companyPhone ? info.companyPhone : null;
  const verifications = storedVerifications.map((verification, index): VerificationRow => ({
    id: crypto.randomUUID(),
    legal_entity_id: entity.id,
    legal_entity_verification: verification.legalEntityVerification ? 1 : 0,
    verification_status: verification.verificationStatus,
    verification_date: verification.verificationDate,
    verification_source: verification.verificationSource,
    business_statement: verification.businessStatement,
    next_review_date: verification.nextReviewDate,
    verification_issues: JSON.stringify(verification.verificationIssues),
    // A millisecond apart in the order given: created_at is the order recorded (decisions.md).
    created_at: new Date(now.getTime() + index).toISOString(),
  }));
  const contact = input.primaryContact;
  const contactId = crypto.randomUUID();
  const documents = (input.supportingDocuments ?? []).map((document): NewDocument => {
    const bytes = Buffer.from(document.file, 'base64');
    return {
      bytes,
      row: {
        id: crypto.randomUUID(),
        entity_id: entity.id,
        file_name: document.fileName,
        type: document.type,
        description: document.description ?? null,
        date_received: dateReceived,
        approved: 0,
        // The bytes decide (the schema refused anything but a document); a declared type is ignored.
        mime_type: identifyFileType(bytes).mimeType,
        file_size: bytes.length,
        sha256: sha256Hex(bytes),
      },
    };
  });

  return {
    documents,
    records: {
      entity,
      legalEntity: {
        entity_id: entity.id,
        company_name: info.companyName,
        registration_number: info.registrationNumber,
        date_of_incorporation: info.dateofIncorporation ?? null,
        duns: info.duns ?? '',
        glei: info.glei ?? '',
        company_phone: companyPhone,
        company_phone_digits: digitsOnly(companyPhone ?? ''),
        email: info.email ?? '',
        primary_address: info.primaryAddress ?? '',
        city: info.city ?? '',
        state_province: info.stateProvince ?? '',
        country: info.country,
        postal_code: info.postalCode ?? '',
      },
      verifications,
      ...(contact
        ? {
            primaryContact: {
              entity: {
                id: contactId,
                kind: 'person',
                created_at: createdAt,
                external_id: null,
                kyc_status: 'New',
                risk_level: DEFAULT_RISK_LEVEL,
                last_update: createdAt,
                next_kyc_review: null,
                tags: '[]',
              },
              person: {
                entity_id: contactId,
                first_name: contact.firstName,
                middle_name: null,
                last_name: contact.lastName,
                date_of_birth: null,
                email: contact.email,
                phone: contact.phone ? contact.phone : null,
                address: null,
                city: null,
                state_province: null,
                country_code: null,
                postal_code: null,
              },
            },
          }
        : {}),
    },
  };
}

/**
 * Creates the legal entity with its verifications, documents and primary contact in one
 * transaction; with an idempotency key, the first response is stored in the same transaction
 * and a retry of the same body gets it back instead of creating anything.
 */
export async function createLegalEntity(
  services: AppServices,
  input: LegalEntityCreate,
  idempotency: Idempotency | undefined,
  /** The account onboarding the entity: the author of a held acceptance. */
  author: Pick<Caller, 'accountId' | 'username'>,
  /** Runs in the creating transaction: the audit event commits with the entity or not at all. */
  beforeCommit?: (
    transaction: Db,
    entity: LegalEntity,
    pendingVerification: PendingVerification | undefined,
  ) => Promise<void>,
): Promise<CreateOutcome> {
  const held = heldAcceptanceOf(input, services.config.fourEyes);
  const { records, documents } = recordsOf(input, services.now(), held);
  return entitiesRepository(services.db).inTransaction(async (transaction) => {
    const entities = entitiesRepository(transaction);
    if (idempotency) {
      const stored = await entities.findIdempotencyKey(idempotency.accountId, idempotency.key);
      if (stored && stored.request_hash !== idempotency.requestHash) {
        throw new ApiError(
          422,
          'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
        );
      }
      if (stored)
        return { kind: 'replayed', statusCode: stored.status_code, body: stored.response_body };
    }

    const info = input.corporateInformation;
    const existing = await entities.findByRegistration(info.registrationNumber, info.country);
    if (existing) {
      const storedAs =
        existing.registration_number === info.registrationNumber
          ? ''
          : ` (stored as ${existing.registration_number})`;
      throw new ApiError(
        409,
        `A legal entity with registration number ${info.registrationNumber} in ${info.country} already exists: ${existing.entity_id}${storedAs}.`,
        [
          {
            field: 'corporateInformation.registrationNumber',
            message: `A legal entity with this registration number in ${info.country} already exists.`,
          },
        ],
        {},
        [{ entityId: existing.entity_id, companyName: existing.company_name }],
      );
    }

    await entities.insertLegalEntity(records);
    await documentsRepository(transaction).insertMany(documents, services.documentKeys);
    await refreshListRecords(transaction, [
      records.entity.id,
      ...(records.primaryContact ? [records.primaryContact.entity.id] : []),
    ]);
    const heldVerification = held && input.corporateVerifications?.[held.index];
    const pendingVerification =
      held && heldVerification
        ? await holdDecision(transaction, {
            entityId: records.entity.id,
            kind: 'verification',
            payload: heldVerification,
            rule: held.rule,
            requestedBy: author,
            at: records.entity.created_at,
          })
        : undefined;
    const entity = await getLegalEntity(transaction, records.entity.id);
    if (idempotency) {
      await entities.insertIdempotencyKey({
        account_id: idempotency.accountId,
        key: idempotency.key,
        request_hash: idempotency.requestHash,
        status_code: CREATED_STATUS,
        response_body: JSON.stringify(createdEnvelopeOf(entity, pendingVerification)),
        created_at: records.entity.created_at,
      });
    }
    await beforeCommit?.(transaction, entity, pendingVerification);
    return { kind: 'created', entity, ...(pendingVerification ? { pendingVerification } : {}) };
  });
}
