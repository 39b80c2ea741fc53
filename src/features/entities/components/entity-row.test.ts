import {
  buildDocument,
  buildLegalEntity,
  buildNaturalPerson,
  buildVerification,
} from '../../../testing/factories.ts';
import { toEntityRow } from './entity-row.ts';

test('a legal entity without verifications shows its KYC status and next KYC review', () => {
  const entity = buildLegalEntity({
    corporateInformation: { companyName: 'Acme GmbH', country: 'DE', registrationNumber: 'HRB 1' },
  });
  expect(toEntityRow(entity)).toEqual({
    id: entity.id,
    name: 'Acme GmbH',
    typeLabel: 'Legal entity',
    countryCode: 'DE',
    registrationNumber: 'HRB 1',
    status: 'Accepted',
    nextReview: '2027-01-15',
    documentCount: null,
  });
});

test('with verifications the newest one gives the status', () => {
  const entity = buildLegalEntity({
    corporateVerifications: [
      buildVerification({ verificationDate: '2025-01-01', verificationStatus: 'Accepted' }),
      buildVerification({ verificationDate: '2026-03-01', verificationStatus: 'Escalated' }),
      buildVerification({ verificationDate: '2025-06-01', verificationStatus: 'Rejected' }),
    ],
    supportingDocuments: [buildDocument(), buildDocument()],
  });
  const row = toEntityRow(entity);
  expect(row.status).toBe('Escalated');
  expect(row.documentCount).toBe(2);
});

test('without a next KYC review the earliest verification review date is used', () => {
  const entity = buildLegalEntity({
    kycMetaData: { kycStatus: 'Pending', nextKYCReview: null },
    corporateVerifications: [
      buildVerification({ nextReviewDate: '2027-05-01' }),
      buildVerification({ nextReviewDate: '2026-09-01' }),
    ],
  });
  expect(toEntityRow(entity).nextReview).toBe('2026-09-01');
});

test('a natural person shows the full name and no registration number', () => {
  const person = buildNaturalPerson({
    personalInformation: {
      firstName: 'Jan',
      middleName: 'Pieter',
      lastName: 'de Vries',
      countryCode: 'NL',
    },
  });
  const row = toEntityRow(person);
  expect(row).toMatchObject({
    name: 'Jan Pieter de Vries',
    typeLabel: 'Natural person',
    countryCode: 'NL',
    registrationNumber: null,
    status: 'Pending',
    nextReview: '2026-12-01',
  });
});
