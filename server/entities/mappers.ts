import type { DatedVerification } from '../../contract/current-verification.ts';
import type {
  DocumentMetadata,
  KycMetaData,
  LegalEntity,
  LinkedEntity,
  NaturalPerson,
  Verification,
} from '../../contract/entities.ts';
import type { EntityRow, LegalEntityRow, NaturalPersonRow, VerificationRow } from '../db/schema.ts';

export function kycMetaDataOf(entity: EntityRow): KycMetaData {
  return {
    externalID: entity.external_id,
    kycStatus: entity.kyc_status,
    riskLevel: entity.risk_level,
    createdDateTime: entity.created_at,
    lastUpdate: entity.last_update,
    nextKYCReview: entity.next_kyc_review,
    tags: JSON.parse(entity.tags) as string[],
    // Absent while unassigned, so the interface's own answers keep their shape.
    ...(entity.assignee === null ? {} : { assignedUser: entity.assignee }),
  };
}

export function verificationOf(row: VerificationRow): Verification {
  return {
    id: row.id,
    legalEntityVerification: row.legal_entity_verification === 1,
    verificationStatus: row.verification_status,
    verificationDate: row.verification_date,
    verificationSource: row.verification_source,
    businessStatement: row.business_statement,
    nextReviewDate: row.next_review_date,
    verificationIssues: JSON.parse(row.verification_issues) as unknown[],
  };
}

/** What the current-verification rule reads of a stored verification (no JSON to parse). */
export function datedVerificationOf(row: VerificationRow): DatedVerification {
  return {
    verificationDate: row.verification_date,
    verificationStatus: row.verification_status,
    nextReviewDate: row.next_review_date,
  };
}

/** The wire legal entity; relations left undefined are omitted. */
export function legalEntityOf(
  entity: EntityRow,
  legal: LegalEntityRow,
  relations: {
    linkedEntities: LinkedEntity[];
    verifications?: Verification[];
    documents?: DocumentMetadata[];
  },
): LegalEntity {
  return {
    id: entity.id,
    type: 'Legal Entity',
    corporateInformation: {
      companyName: legal.company_name,
      registrationNumber: legal.registration_number,
      dateofIncorporation: legal.date_of_incorporation,
      duns: legal.duns,
      glei: legal.glei,
      companyPhone: legal.company_phone,
      email: legal.email,
      primaryAddress: legal.primary_address,
      city: legal.city,
      stateProvince: legal.state_province,
      country: legal.country,
      postalCode: legal.postal_code,
    },
    ...(relations.verifications ? { corporateVerifications: relations.verifications } : {}),
    ...(relations.documents ? { supportingDocuments: relations.documents } : {}),
    kycMetaData: kycMetaDataOf(entity),
    linkedEntities: relations.linkedEntities,
  };
}

/** The wire natural person; relations left undefined are omitted. */
export function naturalPersonOf(
  entity: EntityRow,
  person: NaturalPersonRow,
  relations: { linkedEntities?: LinkedEntity[]; documents?: DocumentMetadata[] } = {},
): NaturalPerson {
  return {
    id: entity.id,
    type: 'Natural Person',
    kycMetaData: kycMetaDataOf(entity),
    personalInformation: {
      firstName: person.first_name,
      middleName: person.middle_name,
      lastName: person.last_name,
      dateOfBirth: person.date_of_birth,
      email: person.email,
      phone: person.phone,
      address: person.address,
      city: person.city,
      stateProvince: person.state_province,
      countryCode: person.country_code,
      postalCode: person.postal_code,
      ...(relations.linkedEntities ? { linkedEntities: relations.linkedEntities } : {}),
    },
    ...(relations.documents ? { supportingDocuments: relations.documents } : {}),
  };
}
