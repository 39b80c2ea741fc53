import type { Entity } from '../../../../contract/entities.ts';

/** What one table row shows, derived from either kind of entity. */
export interface EntityRow {
  id: string;
  name: string;
  type: 'Legal Entity' | 'Natural Person';
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
      type: entity.type,
      typeLabel: 'Natural person',
      countryCode: entity.personalInformation.countryCode ?? null,
      registrationNumber: null,
      status: entity.kycMetaData.kycStatus ?? null,
      nextReview: entity.kycMetaData.nextKYCReview ?? null,
      documentCount: entity.supportingDocuments?.length ?? null,
    };
  }
  // The entity's own KYC status and next review, whatever the list was asked to include: the
  // verifications toggle adds detail and never changes what a column means.
  return {
    id: entity.id,
    name: entity.corporateInformation.companyName,
    type: entity.type,
    typeLabel: 'Legal entity',
    countryCode: entity.corporateInformation.country ?? null,
    registrationNumber: entity.corporateInformation.registrationNumber ?? null,
    status: entity.kycMetaData?.kycStatus ?? null,
    nextReview: entity.kycMetaData?.nextKYCReview ?? null,
    documentCount: entity.supportingDocuments?.length ?? null,
  };
}
