import type { Entity, Verification } from '../../../contract/entities.ts';

/** What one table row shows, derived from either kind of entity. */
export interface EntityRow {
  id: string;
  name: string;
  typeLabel: 'Legal entity' | 'Natural person';
  countryCode: string | null;
  registrationNumber: string | null;
  status: string | null;
  nextReview: string | null;
  documentCount: number | null;
}

function newest(verifications: readonly Verification[]): Verification | undefined {
  return verifications.reduce<Verification | undefined>(
    (latest, candidate) =>
      !latest || (candidate.verificationDate ?? '') > (latest.verificationDate ?? '')
        ? candidate
        : latest,
    undefined,
  );
}

function earliestReview(verifications: readonly Verification[]): string | null {
  const dates = verifications
    .map((verification) => verification.nextReviewDate)
    .filter((date): date is string => Boolean(date))
    .sort();
  return dates[0] ?? null;
}

export function personName(info: {
  firstName: string;
  middleName?: string | null | undefined;
  lastName: string;
}): string {
  return [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' ');
}

export function toEntityRow(entity: Entity): EntityRow {
  if (entity.type === 'Natural Person') {
    return {
      id: entity.id,
      name: personName(entity.personalInformation),
      typeLabel: 'Natural person',
      countryCode: entity.personalInformation.countryCode ?? null,
      registrationNumber: null,
      status: entity.kycMetaData.kycStatus ?? null,
      nextReview: entity.kycMetaData.nextKYCReview ?? null,
      documentCount: entity.supportingDocuments?.length ?? null,
    };
  }
  const verifications = entity.corporateVerifications;
  // The newest verification is the freshest judgement; without verifications the KYC status stands.
  const verificationStatus = verifications ? newest(verifications)?.verificationStatus : undefined;
  return {
    id: entity.id,
    name: entity.corporateInformation.companyName,
    typeLabel: 'Legal entity',
    countryCode: entity.corporateInformation.country ?? null,
    registrationNumber: entity.corporateInformation.registrationNumber ?? null,
    status: verificationStatus ?? entity.kycMetaData?.kycStatus ?? null,
    nextReview:
      entity.kycMetaData?.nextKYCReview ?? (verifications ? earliestReview(verifications) : null),
    documentCount: entity.supportingDocuments?.length ?? null,
  };
}
