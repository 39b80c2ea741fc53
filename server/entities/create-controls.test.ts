import fc from 'fast-check';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { currentVerificationOf } from '../../contract/current-verification.ts';
import type { COUNTRY_CODES } from '../../contract/countries.ts';
import { KYC_STATUSES, legalEntityResponseSchema } from '../../contract/entities.ts';
import { reviewQueueResponseSchema } from '../../contract/reviews.ts';
import { startTestServer, testMode, type TestServer } from '../testing/harness.ts';
import {
  legalEntityPayload,
  postLegalEntity,
  type PayloadOverrides,
} from '../testing/test-payloads.ts';

/** The server's clock; tests move it. 23:30 UTC: already tomorrow at UTC+14, still today at UTC-12. */
let clock = new Date('2026-11-26T23:30:00.000Z');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  clock = new Date('2026-11-26T23:30:00.000Z');
});

function verification(
  verificationDate: string,
  nextReviewDate: string,
  verificationStatus: (typeof KYC_STATUSES)[number] = 'Accepted',
) {
  return {
    legalEntityVerification: true,
    verificationStatus,
    verificationDate,
    verificationSource: 'Manual Entry',
    nextReviewDate,
  };
}

/** The field errors of a refused create (400), or the created entity. */
async function create(overrides: PayloadOverrides) {
  const response = await postLegalEntity(server, legalEntityPayload(overrides));
  if (response.status === 201) {
    return { entity: legalEntityResponseSchema.parse(response.body).data, errors: [] };
  }
  expect(response.status, response.text).toBe(400);
  return { entity: undefined, errors: errorEnvelopeSchema.parse(response.body).errors ?? [] };
}

const fieldsOf = (errors: { field: string }[]) => errors.map((error) => error.field);

describe('dates are checked against the server clock (UTC)', () => {
  it('takes an incorporation date of today and refuses tomorrow, on the field', async () => {
    expect(
      (await create({ corporateInformation: { dateofIncorporation: '2026-11-26' } })).errors,
    ).toEqual([]);
    const { errors } = await create({
      corporateInformation: { dateofIncorporation: '2026-11-27' },
    });
    expect(errors).toEqual([
      {
        field: 'corporateInformation.dateofIncorporation',
        message: 'The date of incorporation cannot be after today (2026-11-26, UTC).',
      },
    ]);
  });

  it('moves "today" at midnight UTC, whatever the time zone of the caller', async () => {
    clock = new Date('2026-11-26T23:59:59.999Z');
    const late = { corporateInformation: { dateofIncorporation: '2026-11-27' } };
    expect(fieldsOf((await create(late)).errors)).toEqual([
      'corporateInformation.dateofIncorporation',
    ]);
    clock = new Date('2026-11-27T00:00:00.000Z');
    expect((await create(late)).errors).toEqual([]);
  });

  it('refuses a verification dated after today and a next review not after the verification date', async () => {
    const { errors } = await create({
      corporateVerifications: [
        verification('2026-11-26', '2027-11-26'),
        verification('2026-11-27', '2027-11-27'),
        verification('2026-01-10', '2026-01-10'),
        verification('2026-01-10', '2026-01-09'),
      ],
    });
    expect(errors).toEqual([
      {
        field: 'corporateVerifications.1.verificationDate',
        message: 'The verification date cannot be after today (2026-11-26, UTC).',
      },
      {
        field: 'corporateVerifications.2.nextReviewDate',
        message: 'The next review date must be after the verification date.',
      },
      {
        field: 'corporateVerifications.3.nextReviewDate',
        message: 'The next review date must be after the verification date.',
      },
    ]);
  });

  it('knows 29 February: 2028-02-29 exists, 2027-02-29 does not', async () => {
    clock = new Date('2028-02-29T00:00:00.000Z');
    expect(
      (
        await create({
          corporateInformation: { dateofIncorporation: '2028-02-29' },
          corporateVerifications: [verification('2028-02-29', '2029-02-28')],
        })
      ).errors,
    ).toEqual([]);
    const { errors } = await create({
      corporateInformation: { dateofIncorporation: '2027-02-29' },
      corporateVerifications: [verification('2027-02-28', '2027-02-29')],
    });
    expect(errors).toEqual([
      { field: 'corporateInformation.dateofIncorporation', message: 'This date does not exist.' },
      { field: 'corporateVerifications.0.nextReviewDate', message: 'This date does not exist.' },
    ]);
  });
});

describe('phone numbers are valid for the company’s country', () => {
  it.each<[(typeof COUNTRY_CODES)[number], string]>([
    ['GB', '020 7946 0958'],
    ['GB', '+44 (20) 7946-0958'],
    ['ES', '637 874 163'],
    ['US', '(212) 555-0100'],
    ['DE', '030 901820'],
    ['FR', '01 42 68 53 00'],
    ['JP', '03-3224-9999'],
    // International form is read as such, wherever the company is.
    ['GB', '+34 637 874 163'],
  ])('%s: takes %s and stores it as entered', async (country, phone) => {
    const { entity, errors } = await create({
      corporateInformation: { country, companyPhone: phone },
      primaryContact: { firstName: 'Ada', lastName: 'Byrne', email: 'ada@example.com', phone },
    });
    expect(errors).toEqual([]);
    expect(entity?.corporateInformation.companyPhone).toBe(phone);
  });

  it.each<[(typeof COUNTRY_CODES)[number], string]>([
    ['GB', 'call me maybe'],
    ['GB', '637 874 163'],
    ['ES', '020 7946 0958'],
    ['US', '123'],
    ['FR', '+33 1 23'],
  ])('%s: refuses %s on both phone fields', async (country, phone) => {
    const { errors } = await create({
      corporateInformation: { country, companyPhone: phone },
      primaryContact: { firstName: 'Ada', lastName: 'Byrne', email: 'ada@example.com', phone },
    });
    expect(fieldsOf(errors)).toEqual(['corporateInformation.companyPhone', 'primaryContact.phone']);
    expect(errors[0]?.message).toMatch(/^Not a valid phone number/);
  });

  it('reads the contact’s national number in the company’s country', async () => {
    const contact = { firstName: 'Ada', lastName: 'Byrne', email: 'ada@example.com' };
    expect(
      (
        await create({
          corporateInformation: { country: 'ES', companyPhone: '+34 910 000 000' },
          primaryContact: { ...contact, phone: '637874163' },
        })
      ).errors,
    ).toEqual([]);
    expect(
      fieldsOf(
        (
          await create({
            corporateInformation: { country: 'GB' },
            primaryContact: { ...contact, phone: '637874163' },
          })
        ).errors,
      ),
    ).toEqual(['primaryContact.phone']);
  });
});

describe('the next review is the newest verification’s', () => {
  it('keeps an overdue date, so the entity shows overdue and enters the queue', async () => {
    const { entity } = await create({
      corporateVerifications: [verification('2024-05-01', '2025-05-01', 'Review')],
    });
    expect(entity?.kycMetaData).toMatchObject({ kycStatus: 'Review', nextKYCReview: '2025-05-01' });
    if (testMode === 'gateway') return;
    const response = await server.request('/api/v2/reviews?due=overdue&type=legal-entities');
    const queue = reviewQueueResponseSchema.parse(response.body);
    expect(queue.data.map((item) => item.entityId)).toContain(entity?.id);
  });

  it('takes the newest by date, then the later one given, over generated histories', async () => {
    const historyArbitrary = fc.array(
      fc.record({
        verificationDate: fc.constantFrom('2024-03-01', '2025-06-15', '2026-11-26'),
        verificationStatus: fc.constantFrom(...KYC_STATUSES),
        nextReviewDate: fc.constantFrom('2025-01-01', '2026-12-01', '2027-06-30', '2028-02-29'),
      }),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const verifications = history
          .filter((item) => item.nextReviewDate > item.verificationDate)
          .map((item) => ({ ...item, legalEntityVerification: true, verificationSource: 'GLEIF' }));
        const { entity } = await create({ corporateVerifications: verifications });
        const expected = currentVerificationOf(verifications);
        expect(entity?.kycMetaData?.kycStatus).toBe(expected?.kycStatus ?? 'New');
        expect(entity?.kycMetaData?.nextKYCReview ?? null).toBe(expected?.nextKYCReview ?? null);
        // Read back in the stored order, the same verification is the newest.
        expect(currentVerificationOf(entity?.corporateVerifications ?? [])).toEqual(expected);
      }),
      { numRuns: 25, seed: 28 },
    );
  });
});
