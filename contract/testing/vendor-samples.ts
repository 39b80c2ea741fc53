import type { z } from 'zod';
import type {
  documentDetailResponseSchema,
  documentListResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
} from '../entities.ts';

/**
 * The real service's own published samples (vendor.md, "What the real service's own samples
 * contain"), made into one small consistent data set. The console's component tests serve them
 * with MSW and server/testing/replay-upstream.ts replays them over HTTP, so both read the same
 * shapes. Typed from the contract's response schemas: a sample the schemas cannot read does not
 * compile.
 */

type LegalEntityWire = z.input<typeof legalEntityResponseSchema>['data'];
type NaturalPersonWire = z.input<typeof naturalPersonResponseSchema>['data'];
type EntityListWire = z.input<typeof entityListResponseSchema>['data'];
type DocumentListWire = z.input<typeof documentListResponseSchema>['data'];
type DocumentDetailWire = z.input<typeof documentDetailResponseSchema>['data'];

/** IDs as the samples write them: not always UUIDs (a 7-character first group, a `g`). */
export const VENDOR_IDS = {
  person: '123456a-fa38-4893-a88c-bca96ba20cf2',
  newCompany: 'd9c66022-d01b-44f2-8ff4-7d4369923668',
  testInc: '6b3g0d25-6f21-449e-af04-bbeber35fbe9',
  document: '1234567a-aff8-4b24-8606-f40a6ef6ec90',
  otherDocument: '1234567a-adf1-4afa-a072-b1f80cdfdef0',
} as const;

/** A legal entity as the list gives it: no kycMetaData, no linkedEntities, DUNS and LEI that are not. */
export const vendorNewCompany = {
  id: VENDOR_IDS.newCompany,
  type: 'Legal Entity',
  corporateInformation: {
    companyName: 'New Company',
    registrationNumber: '111112',
    dateofIncorporation: '2019-01-02',
    duns: '000000',
    glei: '000000',
    companyPhone: null,
    email: 'andrew@testing.com',
    primaryAddress: '123 Fake st',
    city: 'Fake City',
    stateProvince: 'Beograd',
    country: 'CA',
    postalCode: '87333',
  },
} satisfies LegalEntityWire;

export const vendorTestInc = {
  id: VENDOR_IDS.testInc,
  type: 'Legal Entity',
  corporateInformation: {
    companyName: 'Test Inc.',
    registrationNumber: '123456678',
    dateofIncorporation: null,
    duns: '3423489234',
    glei: '665557778',
    companyPhone: '6045559999',
    email: 'matt@macbook.com',
    primaryAddress: 'Guran 444',
    city: 'Ruege',
    stateProvince: 'French Southern Territories',
    country: 'CA',
    postalCode: '787645',
  },
  corporateVerifications: [
    {
      id: 'a9bee36a-7f3b-4c8f-a4dd-6aa15bda5dfe',
      legalEntityVerification: true,
      verificationStatus: 'Accepted',
      verificationDate: '2022-01-28',
      verificationSource: 'Manual Entry',
      businessStatement: 'Doing a new demo',
      nextReviewDate: '2023-01-28',
      verificationIssues: [],
    },
  ],
  supportingDocuments: [],
} satisfies LegalEntityWire;

/** A natural person in the `type=all` list: the list style of kycMetaData. */
export const vendorPersonInList = {
  id: VENDOR_IDS.person,
  type: 'Natural Person',
  kycMetaData: {
    assignedUser: null,
    dateCreated: '2022-02-02 13:29:30.9211175',
    riskLevel: 0,
    status: 'New',
    lastUpdated: '2022-02-02 13:39:39.4233256',
  },
  personalInformation: {
    firstName: 'John',
    middleName: null,
    lastName: 'Doe',
    dateOfBirth: '1966-01-09',
    phone: '01234567896',
    email: 'jdoe@gmail.com',
    city: 'Greenwich',
    stateProvince: 'London, City of',
    countryCode: 'GB',
    postalCode: '123 5FR',
    address: null,
  },
} satisfies NaturalPersonWire;

export const vendorEntityList = [
  vendorPersonInList,
  vendorNewCompany,
  vendorTestInc,
] satisfies EntityListWire;

/**
 * The same person by id: no top-level id or type (the ID is kycMetaData.entityID), a status outside
 * the seven, a three-letter country, the ties in personalInformation.linkedEntities, and the
 * identity checks.
 */
export const vendorPersonDetail = {
  kycMetaData: {
    entityID: VENDOR_IDS.person,
    createdDateTime: '2020-11-17',
    lastUpdate: '2020-11-17',
    nextKYCReview: '2022-11-17',
    kycStatus: 'Approved',
    externalID: null,
    tags: [],
  },
  personalInformation: {
    firstName: 'John',
    middleName: 'James',
    lastName: 'Doe',
    dateOfBirth: '1965-03-11',
    phone: '6021234567',
    email: 'jdoe@outlook.com',
    city: 'Phoenix',
    stateProvince: 'AZ',
    countryCode: 'USA',
    postalCode: '12345',
    address: '123 Someplace Dr',
    linkedEntities: [
      { relationship: 'Advisor', entityID: VENDOR_IDS.newCompany },
      { relationship: 'CEO', entityID: VENDOR_IDS.testInc },
    ],
  },
  identityVerification: [
    {
      id: '1234561c-77a0-4878-996d-95525574de21',
      identityVerification: true,
      identityStatus: 'Accepted',
      identityIssues: [],
      dataSources: null,
      nextReviewDate: '2022-11-17',
    },
  ],
  documentAuthentication: [
    {
      id: '1234561c-aec2-4f33-915a-b2fb51b82007',
      docAuth: true,
      docAuthStatus: 'Accepted',
      docIssuerCountry: 'United States',
      docIssuerStateProvince: null,
      docType: 'ID Card',
      docExpiryDate: '2023-03-11',
      docNumber: 'D12345678',
      docScanConfidence: 100,
      dataMatch: true,
      templateMatch: true,
      docIssues: [],
    },
  ],
} satisfies NaturalPersonWire;

/** A document as an entity's list gives it: no extension, description null, no MIME type or size. */
export const vendorDocument = {
  documentId: VENDOR_IDS.document,
  fileName: 'Supporting document example 3',
  type: 'Proof of Address',
  description: null,
  dateReceived: '2020-09-01 14:38:57',
  documentApproved: false,
} satisfies DocumentListWire[number];

export const vendorDocuments = [
  vendorDocument,
  {
    documentId: VENDOR_IDS.otherDocument,
    fileName: 'Supporting document example 2',
    type: 'Proof of Address',
    description: null,
    dateReceived: '2020-09-01 14:44:39',
    documentApproved: true,
  },
] satisfies DocumentListWire;

/** The bytes behind the first document: a PDF, which only its first bytes say. */
export const VENDOR_DOCUMENT_TEXT = '%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n';

/** The document detail: the metadata and a base64 file, no MIME type or size. */
export const vendorDocumentDetail = {
  ...vendorDocument,
  file: btoa(VENDOR_DOCUMENT_TEXT),
} satisfies DocumentDetailWire;

export const vendorLegalEntities = [vendorNewCompany, vendorTestInc];

/** Which entity each sample document belongs to. */
export const VENDOR_DOCUMENT_OWNER = VENDOR_IDS.newCompany;

export function vendorSuccess<T>(data: T, code = 200) {
  return { code, status: 'success' as const, message: '', data };
}

/** The real service's 404: status `failure`, data null. */
export function vendorNotFound(what: string) {
  return { code: 404, status: 'failure', message: `there is no ${what} with given id`, data: null };
}

/** The real service's 400 sample spells the key `messsage`. */
export function vendorBadRequest(message: string) {
  return { code: 400, status: 'failure', messsage: message, data: null };
}
