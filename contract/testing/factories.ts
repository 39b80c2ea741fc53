import type { DocumentMetadata, LegalEntity, NaturalPerson, Verification } from '../entities.ts';

let sequence = 0;
const nextId = () => {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
};

export function buildVerification(overrides: Partial<Verification> = {}): Verification {
  return {
    id: nextId(),
    legalEntityVerification: true,
    verificationStatus: 'Accepted',
    verificationDate: '2026-01-15',
    verificationSource: 'Manual Entry',
    businessStatement: 'Wholesale of industrial fasteners.',
    nextReviewDate: '2027-01-15',
    verificationIssues: [],
    ...overrides,
  };
}

export function buildDocument(overrides: Partial<DocumentMetadata> = {}): DocumentMetadata {
  return {
    documentId: nextId(),
    fileName: 'proof-of-address.pdf',
    type: 'Proof of Address',
    description: 'Utility bill',
    dateReceived: '2026-02-01 10:30:00',
    documentApproved: false,
    mimeType: 'application/pdf',
    fileSize: 2048,
    ...overrides,
  };
}

export function buildLegalEntity(
  overrides: Partial<Omit<LegalEntity, 'corporateInformation'>> & {
    corporateInformation?: Partial<LegalEntity['corporateInformation']>;
  } = {},
): LegalEntity {
  const { corporateInformation, ...rest } = overrides;
  return {
    id: nextId(),
    type: 'Legal Entity',
    corporateInformation: {
      companyName: 'Northwind Trading Ltd',
      registrationNumber: '09876543',
      dateofIncorporation: '2015-06-01',
      duns: '004567890',
      glei: '5493001KJTIIGC8Y1R12',
      companyPhone: '+44 20 7946 0018',
      email: 'info@northwind.example',
      primaryAddress: '12 Market Street',
      city: 'London',
      stateProvince: 'Greater London',
      country: 'GB',
      postalCode: 'EC1A 1BB',
      ...corporateInformation,
    },
    kycMetaData: {
      externalID: 'NW-001',
      kycStatus: 'Accepted',
      riskLevel: 'Low',
      createdDateTime: '2025-01-10T09:00:00.000Z',
      lastUpdate: '2026-01-15T09:00:00.000Z',
      nextKYCReview: '2027-01-15',
      tags: [],
    },
    linkedEntities: [],
    ...rest,
  };
}

export function buildNaturalPerson(
  overrides: Partial<Omit<NaturalPerson, 'personalInformation'>> & {
    personalInformation?: Partial<NaturalPerson['personalInformation']>;
  } = {},
): NaturalPerson {
  const { personalInformation, ...rest } = overrides;
  return {
    id: nextId(),
    type: 'Natural Person',
    kycMetaData: {
      externalID: null,
      kycStatus: 'Pending',
      riskLevel: 'Medium',
      createdDateTime: '2025-02-01T09:00:00.000Z',
      lastUpdate: '2026-01-01T09:00:00.000Z',
      nextKYCReview: '2026-12-01',
      tags: [],
    },
    personalInformation: {
      firstName: 'Amelia',
      middleName: null,
      lastName: 'Hart',
      dateOfBirth: '1984-04-12',
      email: 'amelia.hart@northwind.example',
      phone: '+44 7700 900123',
      address: '4 Elm Row',
      city: 'London',
      stateProvince: 'Greater London',
      countryCode: 'GB',
      postalCode: 'N1 9GU',
      ...personalInformation,
    },
    ...rest,
  };
}
