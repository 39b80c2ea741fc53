import { z } from 'zod';
import { envelopeSchema, isoDateSchema, queryBooleanSchema } from './common.ts';
import { COUNTRY_CODES } from './countries.ts';
import { base64Head, documentRefusalOf } from './file-type.ts';
import { base64DecodedSize, isValidLei, LEI_PATTERN } from './identifiers.ts';
import { normalisedRegistrationNumber } from './search-text.ts';
import {
  listOrEmpty,
  normaliseCountryCode,
  normaliseKycMetaData,
  normaliseNaturalPerson,
  normaliseNextReview,
  normaliseTimestamp,
} from './normalise.ts';

export const KYC_STATUSES = [
  'New',
  'Pending',
  'Review',
  'Escalated',
  'Accepted',
  'Rejected',
  'Expired',
] as const;
export const kycStatusSchema = z.enum(KYC_STATUSES);
export type KycStatus = z.infer<typeof kycStatusSchema>;

export const RISK_LEVELS = ['Low', 'Medium', 'High'] as const;
export const riskLevelSchema = z.enum(RISK_LEVELS, { error: 'Choose Low, Medium or High.' });
export type RiskLevel = z.infer<typeof riskLevelSchema>;
/** The level an entity gets when none is given at onboarding. */
export const DEFAULT_RISK_LEVEL: RiskLevel = 'Medium';

export const DOCUMENT_TYPES = [
  'Proof of Address',
  'Proof of Wealth',
  'Proof of Identity',
  'Certificate of Incorporation',
  'Bank Statement',
  'Other',
] as const;
export const documentTypeSchema = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof documentTypeSchema>;

export const ENTITY_TYPES = ['all', 'natural-persons', 'legal-entities'] as const;
export type EntityTypeFilter = (typeof ENTITY_TYPES)[number];

/** Largest supporting document accepted on create, in bytes. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export const countryCodeSchema = z.enum(COUNTRY_CODES, {
  error: 'Use a two-letter ISO 3166-1 country code, such as GB.',
});

export const dunsSchema = z.string().regex(/^\d{9}$/, 'A DUNS number has exactly 9 digits.');

export const leiSchema = z
  .string()
  .refine(isValidLei, 'Not a valid LEI: 20 characters whose last two are ISO 17442 check digits.')
  // For the OpenAPI document only: a regex check would add a second error to the refine's.
  .meta({ pattern: LEI_PATTERN.source });

// ---------- records as a service returns them ----------
// Read tolerantly (decisions.md, "Reading the real service"): an ID is any string, optional text
// may be null, statuses and risk levels are shown as they came; normalise.ts maps the variants.

/** Text a service may leave out or send as null. */
const nullableText = z.string().nullish();

/** A date or timestamp in any of the forms the services write; normalised to one. */
const timestampSchema = nullableText.transform(normaliseTimestamp).optional();

/** An ISO 3166-1 alpha-2 or alpha-3 code; normalised to alpha-2. */
const countrySchema = nullableText.transform(normaliseCountryCode).optional();

/** Issues and similar lists: any items, null read as none. */
const looseListSchema = z.array(z.unknown()).nullish().transform(listOrEmpty);

export const corporateInformationSchema = z.object({
  companyName: z.string(),
  registrationNumber: nullableText,
  dateofIncorporation: nullableText,
  duns: nullableText,
  glei: nullableText,
  companyPhone: nullableText,
  email: nullableText,
  primaryAddress: nullableText,
  city: nullableText,
  stateProvince: nullableText,
  country: countrySchema,
  postalCode: nullableText,
});
export type CorporateInformation = z.infer<typeof corporateInformationSchema>;

export const verificationSchema = z.object({
  id: z.string(),
  legalEntityVerification: z.boolean().nullish(),
  verificationStatus: nullableText,
  verificationDate: nullableText,
  verificationSource: nullableText,
  businessStatement: nullableText,
  nextReviewDate: nullableText,
  verificationIssues: looseListSchema,
});
export type Verification = z.infer<typeof verificationSchema>;

/** A reviewer's decision on a document (this project's extension; the real service sends none). */
export const documentDecisionRecordSchema = z.object({
  approved: z.boolean(),
  by: z.string(),
  at: z.string(),
  /** Why it was rejected; null for an approval without one. */
  reason: z.string().nullable(),
});
export type DocumentDecisionRecord = z.infer<typeof documentDecisionRecordSchema>;

/** The real service's list of an entity's documents has no MIME type or size: the bytes decide. */
export const documentMetadataSchema = z.object({
  documentId: z.string(),
  fileName: z.string(),
  type: nullableText,
  description: nullableText,
  dateReceived: timestampSchema,
  documentApproved: z.boolean().nullish(),
  mimeType: nullableText,
  fileSize: z.number().int().nullish(),
  /** The latest decision, null while none was made. */
  decision: documentDecisionRecordSchema.nullish(),
});
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

/** Both styles of KYC metadata: the detail's and the real service's list (`status`, `dateCreated`, …). */
export const kycMetaDataInputSchema = z.object({
  externalID: nullableText,
  kycStatus: nullableText,
  status: nullableText,
  riskLevel: z.union([z.string(), z.number()]).nullish(),
  createdDateTime: nullableText,
  dateCreated: nullableText,
  lastUpdate: nullableText,
  lastUpdated: nullableText,
  nextKYCReview: nullableText,
  tags: z.array(z.string()).nullish(),
  assignedUser: nullableText,
  entityID: nullableText,
});
export const kycMetaDataSchema = kycMetaDataInputSchema.transform(normaliseKycMetaData);
export type { KycMetaData } from './normalise.ts';

export const linkedEntitySchema = z.object({
  relationship: z.string().nullish(),
  entityID: z.string(),
});
export type LinkedEntity = z.infer<typeof linkedEntitySchema>;

export const PRIMARY_CONTACT = 'Primary Contact';

export const legalEntitySchema = z
  .object({
    id: z.string(),
    type: z.literal('Legal Entity'),
    corporateInformation: corporateInformationSchema,
    corporateVerifications: z.array(verificationSchema).optional(),
    supportingDocuments: z.array(documentMetadataSchema).optional(),
    kycMetaData: kycMetaDataSchema.optional(),
    /** This project's legal entities list their people; the real service's do not (vendor.md). */
    linkedEntities: z.array(linkedEntitySchema).optional(),
  })
  .transform(normaliseNextReview);
export type LegalEntity = z.infer<typeof legalEntitySchema>;

export const personalInformationSchema = z.object({
  firstName: z.string(),
  middleName: nullableText,
  lastName: z.string(),
  dateOfBirth: nullableText,
  email: nullableText,
  phone: nullableText,
  address: nullableText,
  city: nullableText,
  stateProvince: nullableText,
  countryCode: countrySchema,
  postalCode: nullableText,
  /** The legal entities the person is tied to, where both services list them. */
  linkedEntities: z.array(linkedEntitySchema).optional(),
});
export type PersonalInformation = z.infer<typeof personalInformationSchema>;

/** An identity check of a natural person (the real service's `identityVerification`). */
export const identityVerificationSchema = z.object({
  id: nullableText,
  identityVerification: z.boolean().nullish(),
  identityStatus: nullableText,
  identityIssues: looseListSchema,
  dataSources: z
    .union([z.array(z.unknown()), z.string()])
    .nullish()
    .transform((sources) => (typeof sources === 'string' ? [sources] : listOrEmpty(sources))),
  nextReviewDate: nullableText,
});
export type IdentityVerification = z.infer<typeof identityVerificationSchema>;

/** An identity document's authentication (the real service's `documentAuthentication`). */
export const documentAuthenticationSchema = z.object({
  id: nullableText,
  docAuth: z.boolean().nullish(),
  docAuthStatus: nullableText,
  /** A country name in the real service's sample (`United States`), shown as it came. */
  docIssuerCountry: nullableText,
  docIssuerStateProvince: nullableText,
  docType: nullableText,
  docExpiryDate: nullableText,
  docNumber: nullableText,
  docScanConfidence: z.union([z.number(), z.string()]).nullish(),
  dataMatch: z.boolean().nullish(),
  templateMatch: z.boolean().nullish(),
  docIssues: looseListSchema,
});
export type DocumentAuthentication = z.infer<typeof documentAuthenticationSchema>;

export const naturalPersonInputSchema = z.object({
  /** Absent in the real service's natural person by id: its ID is `kycMetaData.entityID`. */
  id: z.string().optional(),
  type: z.literal('Natural Person').optional(),
  kycMetaData: kycMetaDataSchema,
  personalInformation: personalInformationSchema,
  supportingDocuments: z.array(documentMetadataSchema).optional(),
  identityVerification: z.array(identityVerificationSchema).nullish(),
  documentAuthentication: z.array(documentAuthenticationSchema).nullish(),
});

export const naturalPersonSchema = naturalPersonInputSchema
  .refine((person) => Boolean(person.id ?? person.kycMetaData.entityID), {
    message: 'A natural person needs an id or kycMetaData.entityID.',
    path: ['id'],
  })
  .transform(normaliseNaturalPerson);
export type NaturalPerson = z.infer<typeof naturalPersonSchema>;

/** An entity of a list: a legal entity, or a natural person (whose `type` the list always gives). */
export const entitySchema = z.union([legalEntitySchema, naturalPersonSchema]);
export type Entity = z.infer<typeof entitySchema>;

export const entityListResponseSchema = envelopeSchema(z.array(entitySchema));
export const legalEntityResponseSchema = envelopeSchema(legalEntitySchema);
export const naturalPersonResponseSchema = envelopeSchema(naturalPersonSchema);
export const searchResponseSchema = envelopeSchema(z.array(z.string()));
export const documentListResponseSchema = envelopeSchema(z.array(documentMetadataSchema));

/** The document with its base64 bytes; the real service promises no MIME type or size. */
export const documentDetailSchema = documentMetadataSchema.extend({
  file: z.string().meta({ contentEncoding: 'base64' }),
});
export type DocumentDetail = z.infer<typeof documentDetailSchema>;
export const documentDetailResponseSchema = envelopeSchema(documentDetailSchema);

// ---------- requests ----------

export const entityListQuerySchema = z.strictObject(
  {
    limit: z.coerce
      .number({ error: 'limit must be a whole number from 1 to 100.' })
      .int('limit must be a whole number from 1 to 100.')
      .min(1, 'limit must be a whole number from 1 to 100.')
      .max(100, 'limit must be a whole number from 1 to 100.')
      .default(10),
    start: z.coerce
      .number({ error: 'start must be a whole number of 0 or more.' })
      .int('start must be a whole number of 0 or more.')
      .min(0, 'start must be a whole number of 0 or more.')
      .default(0),
    type: z
      .enum(ENTITY_TYPES, { error: 'type must be one of all, natural-persons, legal-entities.' })
      .default('all'),
    descending: queryBooleanSchema.default(false),
    supportingDocuments: queryBooleanSchema.default(false),
    corporateVerification: queryBooleanSchema.default(false),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown list parameter: ${issue.keys.join(', ')}. The list takes limit, start, type, descending, supportingDocuments and corporateVerification.`
        : undefined,
  },
);
export type EntityListQuery = z.infer<typeof entityListQuerySchema>;

export const SEARCH_FIELDS = [
  'externalID',
  'duns',
  'glei',
  'companyName',
  'registrationNumber',
  'email',
  'phone',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** Search text; control characters are refused (SQLite would cut a pattern at a NUL and match everything). */
const searchText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => !/\p{Cc}/u.test(text), 'Search text cannot contain control characters.');

/** A search's parameters: all optional, at least one, no unknown one (its name in the message). */
function searchQuerySchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown search parameter: ${issue.keys.join(', ')}.`
          : undefined,
    })
    .refine((query) => Object.keys(query).length > 0, {
      // An unknown parameter is the error to report, not the absence of known ones.
      when: (payload) => payload.issues.length === 0,
      message: `Give at least one search parameter: ${Object.keys(shape).join(', ')}.`,
    });
}

const phoneSearchText = () =>
  searchText(40).regex(/\d/, 'phone must contain at least one digit.').optional();

export const legalEntitySearchQuerySchema = searchQuerySchema({
  externalID: searchText(100).optional(),
  duns: z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, 'duns must be a number of at most 9 digits.')
    .optional(),
  glei: searchText(20).optional(),
  companyName: searchText(200).optional(),
  registrationNumber: searchText(64)
    .refine(
      (text) => normalisedRegistrationNumber(text) !== '',
      'registrationNumber needs more than spaces, dashes, dots and slashes.',
    )
    .optional(),
  email: searchText(254).optional(),
  phone: phoneSearchText(),
} satisfies Record<SearchField, z.ZodType>);
export type LegalEntitySearchQuery = z.infer<typeof legalEntitySearchQuerySchema>;

export const NATURAL_PERSON_SEARCH_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'externalID',
] as const;
export type NaturalPersonSearchField = (typeof NATURAL_PERSON_SEARCH_FIELDS)[number];

export const naturalPersonSearchQuerySchema = searchQuerySchema({
  firstName: searchText(100).optional(),
  lastName: searchText(100).optional(),
  email: searchText(254).optional(),
  phone: phoneSearchText(),
  externalID: searchText(100).optional(),
} satisfies Record<NaturalPersonSearchField, z.ZodType>);
export type NaturalPersonSearchQuery = z.infer<typeof naturalPersonSearchQuerySchema>;

/** Today's date (`YYYY-MM-DD`, UTC): the server's clock on the server, the browser's in the form. */
export type Today = () => string;

/** The UTC calendar date of an instant: decisions.md counts "today" in UTC on both sides. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Today by the clock of whoever runs this (the browser in the console). */
export const wallClockToday: Today = () => utcDateOf(new Date());

/** A verification's fields as stored and shown (held decisions echo them), without the date rules. */
export const verificationInputSchema = z.object({
  legalEntityVerification: z.boolean(),
  verificationStatus: kycStatusSchema,
  verificationDate: isoDateSchema,
  verificationSource: z.string().trim().min(1).max(100),
  businessStatement: z.string().trim().max(2000).default(''),
  nextReviewDate: isoDateSchema,
  verificationIssues: z.array(z.string().trim().min(1).max(500)).max(50).default([]),
});

/**
 * The date rules of a verification (decisions.md, "Dates"): dated no later than today, next review
 * after the verification date. Added to the create payload's verifications and to recorded outcomes.
 */
export function withVerificationDateRules<
  S extends z.ZodType<{ verificationDate: string; nextReviewDate: string }>,
>(schema: S, today: Today) {
  return schema.superRefine((verification, context) => {
    // A date that failed its own format check has its error already; comparing it would add noise.
    const dated = [verification.verificationDate, verification.nextReviewDate].every(
      (date) => isoDateSchema.safeParse(date).success,
    );
    if (!dated) return;
    const todayDate = today();
    if (verification.verificationDate > todayDate) {
      context.addIssue({
        code: 'custom',
        path: ['verificationDate'],
        message: `The verification date cannot be after today (${todayDate}, UTC).`,
      });
    }
    if (verification.nextReviewDate <= verification.verificationDate) {
      context.addIssue({
        code: 'custom',
        path: ['nextReviewDate'],
        message: 'The next review date must be after the verification date.',
      });
    }
  });
}

export const documentInputSchema = z.object({
  fileName: z
    .string()
    .trim()
    .min(1, 'Give the file a name.')
    .max(200)
    .refine(
      // Format characters (direction marks, zero-width spaces) can disguise an extension (`invoice\u202Efdp.exe`).
      (name) => !/[/\\\p{Cc}\p{Cf}]/u.test(name),
      'A file name cannot contain / \\, control characters, or invisible format characters such as text-direction marks.',
    )
    .refine((name) => !/^\.+$/.test(name), 'A file name cannot be only dots.'),
  type: documentTypeSchema,
  description: z.string().trim().max(500).nullable().optional(),
  mimeType: z
    .string()
    .regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'Not a valid MIME type.')
    .optional(),
  file: z
    .string()
    .superRefine((value, ctx) => {
      const size = base64DecodedSize(value);
      if (size === null) ctx.addIssue({ code: 'custom', message: 'The file is not valid base64.' });
      else if (size === 0) ctx.addIssue({ code: 'custom', message: 'The file is empty.' });
      else if (size > MAX_DOCUMENT_BYTES)
        ctx.addIssue({ code: 'custom', message: 'The file is larger than 10 MB.' });
      else {
        const refusal = documentRefusalOf(base64Head(value));
        if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
      }
    })
    .meta({ contentEncoding: 'base64' }),
});
export type DocumentInput = z.infer<typeof documentInputSchema>;
