import { z } from 'zod';
import { emailSchema, envelopeSchema, isoDateSchema, queryBooleanSchema } from './common.ts';
import { COUNTRY_CODES } from './countries.ts';
import { base64DecodedSize, isValidLei } from './identifiers.ts';
import { normalisedRegistrationNumber } from './search-text.ts';

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
  .refine(isValidLei, 'Not a valid LEI: 20 characters whose last two are ISO 17442 check digits.');

// ---------- records as the service returns them ----------

export const corporateInformationSchema = z.object({
  companyName: z.string(),
  registrationNumber: z.string(),
  dateofIncorporation: z.string().nullable(),
  duns: z.string(),
  glei: z.string(),
  companyPhone: z.string().nullable(),
  email: z.string(),
  primaryAddress: z.string(),
  city: z.string(),
  stateProvince: z.string(),
  country: z.string(),
  postalCode: z.string(),
});
export type CorporateInformation = z.infer<typeof corporateInformationSchema>;

export const verificationSchema = z.object({
  id: z.string(),
  legalEntityVerification: z.boolean(),
  verificationStatus: z.string(),
  verificationDate: z.string(),
  verificationSource: z.string(),
  businessStatement: z.string(),
  nextReviewDate: z.string(),
  verificationIssues: z.array(z.unknown()),
});
export type Verification = z.infer<typeof verificationSchema>;

export const documentMetadataSchema = z.object({
  documentId: z.string(),
  fileName: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  dateReceived: z.string(),
  documentApproved: z.boolean(),
  mimeType: z.string().optional(),
  fileSize: z.number().int().optional(),
});
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

export const kycMetaDataSchema = z.object({
  externalID: z.string().nullable().optional(),
  kycStatus: z.string().optional(),
  riskLevel: z.string().optional(),
  createdDateTime: z.string().optional(),
  lastUpdate: z.string().optional(),
  nextKYCReview: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
});
export type KycMetaData = z.infer<typeof kycMetaDataSchema>;

export const linkedEntitySchema = z.object({
  relationship: z.string().optional(),
  entityID: z.string(),
});
export type LinkedEntity = z.infer<typeof linkedEntitySchema>;

export const PRIMARY_CONTACT = 'Primary Contact';

export const legalEntitySchema = z.object({
  id: z.string(),
  type: z.literal('Legal Entity'),
  corporateInformation: corporateInformationSchema,
  corporateVerifications: z.array(verificationSchema).optional(),
  supportingDocuments: z.array(documentMetadataSchema).optional(),
  kycMetaData: kycMetaDataSchema.optional(),
  linkedEntities: z.array(linkedEntitySchema).optional(),
});
export type LegalEntity = z.infer<typeof legalEntitySchema>;

export const personalInformationSchema = z.object({
  firstName: z.string(),
  middleName: z.string().nullable().optional(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  stateProvince: z.string().nullable().optional(),
  countryCode: z.string().nullable().optional(),
  postalCode: z.string().nullable().optional(),
  linkedEntities: z.array(linkedEntitySchema).optional(),
});
export type PersonalInformation = z.infer<typeof personalInformationSchema>;

export const naturalPersonSchema = z.object({
  id: z.string(),
  type: z.literal('Natural Person'),
  kycMetaData: kycMetaDataSchema,
  personalInformation: personalInformationSchema,
  supportingDocuments: z.array(documentMetadataSchema).optional(),
});
export type NaturalPerson = z.infer<typeof naturalPersonSchema>;

export const entitySchema = z.discriminatedUnion('type', [legalEntitySchema, naturalPersonSchema]);
export type Entity = z.infer<typeof entitySchema>;

export const entityListResponseSchema = envelopeSchema(z.array(entitySchema));
export const legalEntityResponseSchema = envelopeSchema(legalEntitySchema);
export const naturalPersonResponseSchema = envelopeSchema(naturalPersonSchema);
export const searchResponseSchema = envelopeSchema(z.array(z.string()));
export const documentListResponseSchema = envelopeSchema(z.array(documentMetadataSchema));

export const documentDetailSchema = documentMetadataSchema.extend({
  mimeType: z.string(),
  fileSize: z.number().int(),
  file: z.string(),
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

const optionalText = (max: number) => z.string().trim().max(max).optional();

export const corporateInformationInputSchema = z.object({
  companyName: z.string().trim().min(1, 'Enter the company name.').max(200),
  registrationNumber: z
    .string()
    .trim()
    .min(1, 'Enter the registration number.')
    .max(64)
    // Spaces, dashes, dots and slashes do not count (`ABC-1` and `ABC 1` are one number).
    .refine(
      (text) => text === '' || normalisedRegistrationNumber(text) !== '',
      'A registration number needs more than spaces, dashes, dots and slashes.',
    ),
  country: countryCodeSchema,
  dateofIncorporation: isoDateSchema.nullable().optional(),
  duns: dunsSchema.optional(),
  glei: leiSchema.optional(),
  companyPhone: z.string().trim().max(40).nullable().optional(),
  email: emailSchema.optional(),
  primaryAddress: optionalText(200),
  city: optionalText(100),
  stateProvince: optionalText(100),
  postalCode: optionalText(20),
});

export const primaryContactInputSchema = z.object({
  firstName: z.string().trim().min(1, 'Enter the first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter the last name.').max(100),
  email: emailSchema,
  phone: z.string().trim().max(40).optional(),
});

export const verificationInputSchema = z.object({
  legalEntityVerification: z.boolean(),
  verificationStatus: kycStatusSchema,
  verificationDate: isoDateSchema,
  verificationSource: z.string().trim().min(1).max(100),
  businessStatement: z.string().trim().max(2000).default(''),
  nextReviewDate: isoDateSchema,
  verificationIssues: z.array(z.string().trim().min(1).max(500)).max(50).default([]),
});

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
  file: z.string().superRefine((value, ctx) => {
    const size = base64DecodedSize(value);
    if (size === null) ctx.addIssue({ code: 'custom', message: 'The file is not valid base64.' });
    else if (size === 0) ctx.addIssue({ code: 'custom', message: 'The file is empty.' });
    else if (size > MAX_DOCUMENT_BYTES)
      ctx.addIssue({ code: 'custom', message: 'The file is larger than 10 MB.' });
  }),
});
export type DocumentInput = z.infer<typeof documentInputSchema>;

/** The create payload: the console's form and the server validate with this one schema. */
export const legalEntityCreateSchema = z.object({
  externalID: z.string().trim().min(1).max(100).optional(),
  corporateInformation: corporateInformationInputSchema,
  primaryContact: primaryContactInputSchema.optional(),
  corporateVerifications: z.array(verificationInputSchema).max(20).optional(),
  supportingDocuments: z.array(documentInputSchema).max(20).optional(),
});
export type LegalEntityCreateInput = z.input<typeof legalEntityCreateSchema>;
export type LegalEntityCreate = z.infer<typeof legalEntityCreateSchema>;
