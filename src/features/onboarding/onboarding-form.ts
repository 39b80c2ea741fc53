import { z } from 'zod';
import { defaultNextReviewDate } from '../../../contract/decisions.ts';
import { DEFAULT_RISK_LEVEL } from '../../../contract/entities.ts';
import {
  legalEntityCreateSchema,
  type LegalEntityCreateInput,
} from '../../../contract/legal-entity-create.ts';

export interface VerificationValues {
  legalEntityVerification: boolean;
  verificationStatus: string;
  verificationDate: string;
  verificationSource: string;
  businessStatement: string;
  nextReviewDate: string;
  /** One issue per line. */
  verificationIssues: string;
}

export interface DocumentValues {
  /** Stable key for React lists; never sent. */
  key: string;
  fileName: string;
  type: string;
  description: string;
  mimeType: string;
  size: number;
  /** Base64 of the file's bytes. */
  file: string;
}

/** Everything the form holds, as strings the inputs edit; `toCreatePayload` turns it into the wire shape. */
export interface OnboardingFormValues {
  externalID: string;
  /** Low, Medium or High; drafts saved before it existed have none (Medium then). */
  riskLevel?: string;
  corporateInformation: {
    companyName: string;
    registrationNumber: string;
    country: string;
    dateofIncorporation: string;
    duns: string;
    glei: string;
    companyPhone: string;
    email: string;
    primaryAddress: string;
    city: string;
    stateProvince: string;
    postalCode: string;
  };
  hasPrimaryContact: boolean;
  primaryContact: { firstName: string; lastName: string; email: string; phone: string };
  corporateVerifications: VerificationValues[];
  supportingDocuments: DocumentValues[];
}

export const MAX_VERIFICATIONS = 20;
export const MAX_DOCUMENTS = 20;

export function emptyOnboardingValues(): OnboardingFormValues {
  return {
    externalID: '',
    riskLevel: DEFAULT_RISK_LEVEL,
    corporateInformation: {
      companyName: '',
      registrationNumber: '',
      country: '',
      dateofIncorporation: '',
      duns: '',
      glei: '',
      companyPhone: '',
      email: '',
      primaryAddress: '',
      city: '',
      stateProvince: '',
      postalCode: '',
    },
    hasPrimaryContact: false,
    primaryContact: { firstName: '', lastName: '', email: '', phone: '' },
    corporateVerifications: [],
    supportingDocuments: [],
  };
}

/** A new verification dated `today`, its next review proposed from the risk level (the one cycle rule). */
export function newVerificationValues(today: string, riskLevel?: string): VerificationValues {
  return {
    legalEntityVerification: true,
    verificationStatus: 'Pending',
    verificationDate: today,
    verificationSource: 'Manual Entry',
    businessStatement: '',
    nextReviewDate: today === '' ? '' : defaultNextReviewDate(today, riskLevel),
    verificationIssues: '',
  };
}

/** Blank optional text is left out of the payload rather than sent as an empty string. */
function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function toCreatePayload(values: OnboardingFormValues): LegalEntityCreateInput {
  const info = values.corporateInformation;
  const contact = values.primaryContact;
  return {
    externalID: optional(values.externalID),
    riskLevel: (values.riskLevel ?? DEFAULT_RISK_LEVEL) as LegalEntityCreateInput['riskLevel'],
    corporateInformation: {
      companyName: info.companyName,
      registrationNumber: info.registrationNumber,
      country: info.country.trim() as LegalEntityCreateInput['corporateInformation']['country'],
      dateofIncorporation: optional(info.dateofIncorporation),
      duns: optional(info.duns),
      glei: optional(info.glei)?.toUpperCase(),
      companyPhone: optional(info.companyPhone),
      email: optional(info.email),
      primaryAddress: optional(info.primaryAddress),
      city: optional(info.city),
      stateProvince: optional(info.stateProvince),
      postalCode: optional(info.postalCode),
    },
    primaryContact: values.hasPrimaryContact
      ? {
          firstName: contact.firstName,
          lastName: contact.lastName,
          email: contact.email.trim(),
          phone: optional(contact.phone),
        }
      : undefined,
    corporateVerifications:
      values.corporateVerifications.length > 0
        ? values.corporateVerifications.map((verification) => ({
            legalEntityVerification: verification.legalEntityVerification,
            verificationStatus:
              verification.verificationStatus as LegalEntityCreateVerificationStatus,
            verificationDate: verification.verificationDate.trim(),
            verificationSource: verification.verificationSource,
            businessStatement: verification.businessStatement,
            nextReviewDate: verification.nextReviewDate.trim(),
            verificationIssues: verification.verificationIssues
              .split('\n')
              .map((issue) => issue.trim())
              .filter((issue) => issue !== ''),
          }))
        : undefined,
    supportingDocuments:
      values.supportingDocuments.length > 0
        ? values.supportingDocuments.map((document) => ({
            fileName: document.fileName,
            type: document.type as LegalEntityCreateDocumentType,
            description: optional(document.description),
            mimeType: optional(document.mimeType),
            file: document.file,
          }))
        : undefined,
  };
}

type LegalEntityCreateVerificationStatus = NonNullable<
  LegalEntityCreateInput['corporateVerifications']
>[number]['verificationStatus'];
type LegalEntityCreateDocumentType = NonNullable<
  LegalEntityCreateInput['supportingDocuments']
>[number]['type'];

/** The server's schema over the form's values: the console validates exactly what the server will. */
export const onboardingFormSchema = z
  .custom<OnboardingFormValues>()
  .transform(toCreatePayload)
  .pipe(legalEntityCreateSchema);

/** Friendlier words for the contract's generic messages; the contract's own messages win. */
export const onboardingMessages: z.core.$ZodErrorMap = (issue) => {
  const last = issue.path?.at(-1);
  if (issue.code === 'invalid_value' && last === 'type') return 'Choose the document type.';
  if (issue.code === 'invalid_value' && last === 'verificationStatus')
    return 'Choose a verification status.';
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1)
    return 'This field is required.';
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `At most ${String(issue.maximum)} characters.`;
  return undefined;
};

const CORPORATE_FIELDS = new Set(Object.keys(emptyOnboardingValues().corporateInformation));
const CONTACT_FIELDS = new Set(['firstName', 'lastName', 'email', 'phone']);
const VERIFICATION_FIELDS = new Set(Object.keys(newVerificationValues('')));

type OnboardingFieldPath =
  | 'externalID'
  | 'riskLevel'
  | `corporateInformation.${keyof OnboardingFormValues['corporateInformation']}`
  | `primaryContact.${keyof OnboardingFormValues['primaryContact']}`
  | `corporateVerifications.${number}.${keyof VerificationValues}`
  | `supportingDocuments.${number}.${'type' | 'description' | 'file'}`;

/**
 * The input a server field error belongs on (`corporateInformation.country`,
 * `supportingDocuments.0.file`), or null when no input shows it.
 */
export function formFieldOf(
  serverField: string,
  values: OnboardingFormValues,
): OnboardingFieldPath | null {
  const [section, second, third] = serverField.split('.');
  if (section === 'externalID' && second === undefined) return 'externalID';
  if (section === 'riskLevel' && second === undefined) return 'riskLevel';
  if (section === 'corporateInformation' && second && CORPORATE_FIELDS.has(second))
    return serverField as OnboardingFieldPath;
  if (
    section === 'primaryContact' &&
    second &&
    CONTACT_FIELDS.has(second) &&
    values.hasPrimaryContact
  )
    return serverField as OnboardingFieldPath;
  const index = Number(second);
  if (!Number.isInteger(index) || index < 0 || third === undefined) return null;
  if (
    section === 'corporateVerifications' &&
    index < values.corporateVerifications.length &&
    VERIFICATION_FIELDS.has(third)
  )
    return `corporateVerifications.${index}.${third as keyof VerificationValues}`;
  if (section === 'supportingDocuments' && index < values.supportingDocuments.length) {
    if (third === 'type' || third === 'description') return `supportingDocuments.${index}.${third}`;
    // The file name, MIME type and bytes come from the file itself, shown on its row.
    return `supportingDocuments.${index}.file`;
  }
  return null;
}

/** The first message at or below a react-hook-form error node (nested arrays included). */
export function firstErrorMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if ('message' in error && typeof error.message === 'string' && error.message !== '')
    return error.message;
  for (const [key, child] of Object.entries(error)) {
    if (key === 'ref') continue;
    const message = firstErrorMessage(child);
    if (message) return message;
  }
  return undefined;
}

/** What a 409 names in its `data`: the legal entity already registered under that number. */
export const existingEntitySchema = z
  .array(z.object({ entityId: z.string().min(1), companyName: z.string().nullish() }))
  .min(1)
  .transform(([entity]) => entity);
export type ExistingEntity = NonNullable<z.output<typeof existingEntitySchema>>;
