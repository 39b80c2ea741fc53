import {
  buildDocument,
  buildLegalEntity,
  buildNaturalPerson,
  buildVerification,
} from '../../../../contract/testing/factories.ts';
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
    type: 'Legal Entity',
    status: 'Accepted',
    nextReview: '2027-01-15',
    documentCount: null,
  });
});

test('the status and next review are the entity’s own, with or without its verifications', () => {
  const kycMetaData = { kycStatus: 'Expired', nextKYCReview: '2026-01-10' };
  const verifications = [
    buildVerification({ verificationDate: '2024-01-01', verificationStatus: 'Expired' }),
    buildVerification({ verificationDate: '2026-03-01', verificationStatus: 'Accepted' }),
  ];
  const without = toEntityRow(buildLegalEntity({ kycMetaData }));
  const withVerifications = toEntityRow(
    buildLegalEntity({
      kycMetaData,
      corporateVerifications: verifications,
      supportingDocuments: [buildDocument(), buildDocument()],
    }),
  );
  expect(withVerifications.status).toBe('Expired');
  expect(withVerifications.status).toBe(without.status);
  expect(withVerifications.documentCount).toBe(2);
});

test('without a next KYC review of its own the row shows none, whatever the verifications say', () => {
  const entity = buildLegalEntity({
    kycMetaData: { kycStatus: 'Pending', nextKYCReview: null },
    corporateVerifications: [buildVerification({ nextReviewDate: '2027-05-01' })],
  });
  expect(toEntityRow(entity).nextReview).toBeNull();
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
