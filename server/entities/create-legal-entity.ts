import crypto from 'node:crypto';
import { currentVerificationOf } from '../../src/contract/current-verification.ts';
import { digitsOnly } from '../../src/contract/identifiers.ts';
import type { LegalEntity, LegalEntityCreate } from '../../src/contract/entities.ts';
import type { Db } from '../db/database.ts';
import type { EntityInput, VerificationRow } from '../db/schema.ts';
import { mimeTypeOf } from '../documents/mime-type.ts';
import { documentsRepository, type NewDocument } from '../documents/repository.ts';
import { ApiError } from '../http/errors.ts';
import type { AppServices } from '../services.ts';
import { entitiesRepository, type NewLegalEntity } from './repository.ts';
import { refreshListRecords } from './list-records.ts';
import { getLegalEntity } from './service.ts';

export const DEFAULT_RISK_LEVEL = 'Medium';
export const CREATED_STATUS = 201;

export interface Idempotency {
  accountId: string;
  key: string;
  /** sha256 of the request body, to tell a retry from a different request under the same key. */
  requestHash: string;
}

export type CreateOutcome =
  { kind: 'created'; entity: LegalEntity } | { kind: 'replayed'; statusCode: number; body: string };

const sha256Hex = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');

export function requestHashOf(body: unknown): string {
  return sha256Hex(JSON.stringify(body));
}

function recordsOf(
  input: LegalEntityCreate,
  now: Date,
): { records: NewLegalEntity; documents: NewDocument[] } {
  const createdAt = now.toISOString();
  const today = createdAt.slice(0, 10);
  const dateReceived = `${today} ${createdAt.slice(11, 19)}`;
  const info = input.corporateInformation;
  // Overdue dates are kept: an entity reviewed late must show as overdue and enter the queue.
  const current = currentVerificationOf(input.corporateVerifications ?? []);
  const entity: EntityInput = {
    id: crypto.randomUUID(),
    kind: 'legal',
    created_at: createdAt,
    external_id: input.externalID ?? null,
    kyc_status: current?.kycStatus ?? 'New',
    risk_level: DEFAULT_RISK_LEVEL,
    last_update: createdAt,
    next_kyc_review: current?.nextKYCReview ?? null,
    tags: '[]',
  };
  const companyPhone = info.companyPhone ? info.companyPhone : null;
  const verifications = (input.corporateVerifications ?? []).map(
    (verification, index): VerificationRow => ({
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
    }),
  );
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
        mime_type: mimeTypeOf(bytes, document.fileName, document.mimeType),
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
  /** Runs in the creating transaction: the audit event commits with the entity or not at all. */
  beforeCommit?: (transaction: Db, entity: LegalEntity) => Promise<void>,
): Promise<CreateOutcome> {
  const { records, documents } = recordsOf(input, services.now());
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
      );
    }

    await entities.insertLegalEntity(records);
    await documentsRepository(transaction).insertMany(documents, services.documentKeys);
    await refreshListRecords(transaction, [
      records.entity.id,
      ...(records.primaryContact ? [records.primaryContact.entity.id] : []),
    ]);
    const entity = await getLegalEntity(transaction, records.entity.id);
    if (idempotency) {
      await entities.insertIdempotencyKey({
        account_id: idempotency.accountId,
        key: idempotency.key,
        request_hash: idempotency.requestHash,
        status_code: CREATED_STATUS,
        response_body: JSON.stringify({
          code: CREATED_STATUS,
          status: 'success',
          message: '',
          data: entity,
        }),
        created_at: records.entity.created_at,
      });
    }
    await beforeCommit?.(transaction, entity);
    return { kind: 'created', entity };
  });
}
