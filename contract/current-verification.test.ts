import fc from 'fast-check';
import { buildLegalEntity } from './testing/factories.ts';
import { vendorSuccess } from './testing/vendor-samples.ts';
import { currentVerificationOf, newestVerificationOf } from './current-verification.ts';
import { KYC_STATUSES, legalEntityResponseSchema } from './entities.ts';

const verificationArbitrary = fc.record({
  verificationDate: fc.constantFrom('2024-02-29', '2025-06-15', '2025-06-16', '2026-01-31'),
  verificationStatus: fc.constantFrom(...KYC_STATUSES),
  nextReviewDate: fc.constantFrom('2025-01-01', '2026-06-30', '2027-12-31'),
});

test('the newest is the latest date, and on one date the one recorded last, over generated histories', () => {
  fc.assert(
    fc.property(fc.array(verificationArbitrary, { maxLength: 8 }), (history) => {
      const newest = newestVerificationOf(history);
      if (history.length === 0) {
        expect(newest).toBeUndefined();
        expect(currentVerificationOf(history)).toBeUndefined();
        return;
      }
      // The oracle: a stable sort by date keeps the order recorded within a date; the last wins.
      const sorted = history
        .map((verification, recorded) => ({ verification, recorded }))
        .sort(
          (a, b) =>
            a.verification.verificationDate.localeCompare(b.verification.verificationDate) ||
            a.recorded - b.recorded,
        );
      expect(newest).toBe(sorted.at(-1)?.verification);
      expect(currentVerificationOf(history)).toEqual({
        kycStatus: newest?.verificationStatus,
        nextKYCReview: newest?.nextReviewDate,
      });
    }),
    { seed: 28 },
  );
});

test('keeps a review date that has passed: an overdue entity is not undated', () => {
  expect(
    currentVerificationOf([
      {
        verificationDate: '2020-01-01',
        verificationStatus: 'Accepted',
        nextReviewDate: '2021-01-01',
      },
    ]),
  ).toEqual({ kycStatus: 'Accepted', nextKYCReview: '2021-01-01' });
});

test('reads a record whose next review disagrees with its newest verification as the newest says (gateway mode)', () => {
  const company = buildLegalEntity({
    kycMetaData: { kycStatus: 'Accepted', nextKYCReview: '2026-09-16' },
    corporateVerifications: [
      {
        id: 'v-2',
        verificationDate: '2025-12-01',
        verificationStatus: 'Accepted',
        nextReviewDate: '2026-12-05',
        verificationIssues: [],
      },
      {
        id: 'v-1',
        verificationDate: '2025-09-16',
        verificationStatus: 'Review',
        nextReviewDate: '2026-09-16',
        verificationIssues: [],
      },
    ],
  });
  const read = legalEntityResponseSchema.parse(vendorSuccess(company)).data;
  expect(read.kycMetaData).toMatchObject({ kycStatus: 'Accepted', nextKYCReview: '2026-12-05' });
  // Without verifications the service's own date stands.
  const bare = legalEntityResponseSchema.parse(
    vendorSuccess({ ...company, corporateVerifications: [] }),
  ).data;
  expect(bare.kycMetaData?.nextKYCReview).toBe('2026-09-16');
});
