import { currentVerificationOf } from '../../../contract/current-verification.ts';
import type { Entity } from '../../../contract/entities.ts';

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
  const current = currentVerificationOf(verifications ?? []);
  return {
    id: entity.id,
    name: entity.corporateInformation.companyName,
    typeLabel: 'Legal entity',
    countryCode: entity.corporateInformation.country ?? null,
    registrationNumber: entity.corporateInformation.registrationNumber ?? null,
    status: current?.kycStatus ?? entity.kycMetaData?.kycStatus ?? null,
    // The normaliser already set the date from the newest verification where there is metadata.
    nextReview: entity.kycMetaData?.nextKYCReview ?? current?.nextKYCReview ?? null,
    documentCount: entity.supportingDocuments?.length ?? null,
  };
}
