import { buildDocument, buildLegalEntity, buildNaturalPerson } from './testing/factories.ts';
import {
  vendorBadRequest,
  vendorDocumentDetail,
  vendorDocuments,
  vendorEntityList,
  vendorNotFound,
  vendorPersonDetail,
  vendorSuccess,
  VENDOR_IDS,
} from './testing/vendor-samples.ts';
import { serviceErrorEnvelopeSchema } from './common.ts';
import { toAlpha2CountryCode } from './countries.ts';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  naturalPersonSchema,
} from './entities.ts';
import { legalEntityCreateSchema } from './legal-entity-create.ts';
import { normaliseTimestamp } from './normalise.ts';

test('reads the type=all list of the real service, whose person has list-style KYC metadata', () => {
  const [person, newCompany, testInc] = entityListResponseSchema.parse(
    vendorSuccess(vendorEntityList),
  ).data;
  expect(person).toEqual({
    id: VENDOR_IDS.person,
    type: 'Natural Person',
    kycMetaData: {
      kycStatus: 'New',
      riskLevel: '0',
      createdDateTime: '2022-02-02T13:29:30.921Z',
      lastUpdate: '2022-02-02T13:39:39.423Z',
      assignedUser: null,
    },
    personalInformation: expect.objectContaining({ middleName: null, address: null }) as unknown,
  });
  expect(newCompany).toMatchObject({
    id: VENDOR_IDS.newCompany,
    corporateInformation: { duns: '000000', glei: '000000', companyPhone: null },
  });
  expect(testInc).toMatchObject({
    id: VENDOR_IDS.testInc,
    corporateInformation: { dateofIncorporation: null, duns: '3423489234', glei: '665557778' },
  });
  expect(newCompany && 'kycMetaData' in newCompany).toBe(false);
  expect(newCompany && 'linkedEntities' in newCompany).toBe(false);
});

test('reads the real service’s natural person by id: the ID from kycMetaData.entityID', () => {
  const person = naturalPersonResponseSchema.parse(vendorSuccess(vendorPersonDetail)).data;
  expect(person.id).toBe(VENDOR_IDS.person);
  expect(person.type).toBe('Natural Person');
  expect(person.kycMetaData.kycStatus).toBe('Approved');
  expect(person.kycMetaData.externalID).toBeNull();
  expect(person.personalInformation.countryCode).toBe('US');
  expect(person.personalInformation.linkedEntities).toEqual([
    { relationship: 'Advisor', entityID: VENDOR_IDS.newCompany },
    { relationship: 'CEO', entityID: VENDOR_IDS.testInc },
  ]);
  expect(person.identityVerification?.[0]).toMatchObject({
    identityStatus: 'Accepted',
    identityIssues: [],
    dataSources: [],
  });
  expect(person.documentAuthentication?.[0]).toMatchObject({
    docType: 'ID Card',
    docScanConfidence: 100,
    templateMatch: true,
  });
});

test('refuses a natural person with neither an id nor kycMetaData.entityID', () => {
  const { kycMetaData, ...rest } = vendorPersonDetail;
  const result = naturalPersonSchema.safeParse({
    ...rest,
    kycMetaData: { ...kycMetaData, entityID: null },
  });
  expect(result.success).toBe(false);
  expect(result.error?.issues[0]?.message).toBe(
    'A natural person needs an id or kycMetaData.entityID.',
  );
});

test('reads documents and a document detail without MIME type or size', () => {
  const list = documentListResponseSchema.parse(vendorSuccess(vendorDocuments)).data;
  expect(list.map((document) => document.fileName)).toEqual([
    'Supporting document example 3',
    'Supporting document example 2',
  ]);
  const detail = documentDetailResponseSchema.parse(vendorSuccess(vendorDocumentDetail)).data;
  expect(detail.mimeType).toBeUndefined();
  expect(detail.fileSize).toBeUndefined();
  expect(detail.file).toBe(vendorDocumentDetail.file);
});

test('reads a create answered with code 201 and an empty errors array', () => {
  const body = { ...vendorSuccess(buildLegalEntity(), 201), errors: [] };
  expect(legalEntityResponseSchema.parse(body).code).toBe(201);
});

test('passes this project’s own records through unchanged', () => {
  const company = buildLegalEntity({ supportingDocuments: [buildDocument()] });
  const person = buildNaturalPerson({
    personalInformation: { linkedEntities: [{ relationship: 'CEO', entityID: company.id }] },
  });
  expect(legalEntityResponseSchema.parse(vendorSuccess(company)).data).toStrictEqual(company);
  expect(naturalPersonResponseSchema.parse(vendorSuccess(person)).data).toStrictEqual(person);
});

test('reads both error envelopes: this server’s and the real service’s', () => {
  expect(serviceErrorEnvelopeSchema.parse(vendorNotFound('entity'))).toEqual({
    code: 404,
    message: 'there is no entity with given id',
    errors: [],
    data: null,
  });
  expect(serviceErrorEnvelopeSchema.parse(vendorBadRequest('limit is too large')).message).toBe(
    'limit is too large',
  );
  const own = {
    code: 400,
    status: 'error',
    message: 'Invalid field limit.',
    data: [],
    errors: [{ field: 'limit', message: 'Too large.' }],
  };
  expect(serviceErrorEnvelopeSchema.parse(own)).toEqual({
    code: 400,
    message: 'Invalid field limit.',
    errors: own.errors,
    data: [],
  });
  expect(serviceErrorEnvelopeSchema.safeParse(vendorSuccess([])).success).toBe(false);
});

test.each([
  ['2022-02-02 13:29:30.9211175', '2022-02-02T13:29:30.921Z'],
  ['2022-02-02T13:29:30', '2022-02-02T13:29:30.000Z'],
  ['2026-02-01 10:30:00', '2026-02-01 10:30:00'],
  ['2025-01-10T09:00:00.000Z', '2025-01-10T09:00:00.000Z'],
  ['2020-11-17', '2020-11-17'],
  ['not a date', 'not a date'],
])('normalises the timestamp %s to %s', (value, expected) => {
  expect(normaliseTimestamp(value)).toBe(expected);
});

test('maps three-letter country codes and leaves others as they came', () => {
  expect(toAlpha2CountryCode('USA')).toBe('US');
  expect(toAlpha2CountryCode('GBR')).toBe('GB');
  expect(toAlpha2CountryCode('GB')).toBe('GB');
  expect(toAlpha2CountryCode('XYZ')).toBe('XYZ');
});

test('requests stay strict: the create schema still refuses what responses tolerate', () => {
  const result = legalEntityCreateSchema.safeParse({
    corporateInformation: {
      companyName: 'Test Inc.',
      registrationNumber: '123456678',
      country: 'USA',
      duns: '000000',
      glei: '665557778',
    },
  });
  expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
    'corporateInformation.country',
    'corporateInformation.duns',
    'corporateInformation.glei',
  ]);
});
