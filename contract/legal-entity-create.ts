import { z } from 'zod';
import { emailSchema, isoDateSchema } from './common.ts';
import { COUNTRY_CODES } from './countries.ts';
import {
  countryCodeSchema,
  DEFAULT_RISK_LEVEL,
  documentInputSchema,
  dunsSchema,
  leiSchema,
  riskLevelSchema,
  type Today,
  verificationInputSchema,
  wallClockToday,
  withVerificationDateRules,
} from './entities.ts';
import { phoneProblemOf } from './phone.ts';
import { normalisedRegistrationNumber } from './search-text.ts';

// Apart from entities.ts: the phone rule's metadata (~50 kB gzip) must load with onboarding only.

const optionalText = (max: number) => z.string().trim().max(max).optional();

/** A real date that is not after today (UTC); the message names today's date. */
function notAfterTodaySchema(today: Today, what: string) {
  return isoDateSchema.superRefine((date, context) => {
    const todayDate = today();
    if (date > todayDate) {
      context.addIssue({
        code: 'custom',
        message: `${what} cannot be after today (${todayDate}, UTC).`,
      });
    }
  });
}

const phoneTextSchema = z.string().trim().max(40);

export function corporateInformationInputSchemaFor(today: Today) {
  return z
    .object({
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
      dateofIncorporation: notAfterTodaySchema(today, 'The date of incorporation')
        .nullable()
        .optional(),
      duns: dunsSchema.optional(),
      glei: leiSchema.optional(),
      companyPhone: phoneTextSchema.nullable().optional(),
      email: emailSchema.optional(),
      primaryAddress: optionalText(200),
      city: optionalText(100),
      stateProvince: optionalText(100),
      postalCode: optionalText(20),
    })
    .superRefine((info, context) => {
      // Runs even when other fields failed: the phone's error belongs on the phone either way.
      if (info.companyPhone && typeof info.country === 'string') {
        addPhoneIssue(context, info.companyPhone, info.country, ['companyPhone']);
      }
    });
}

export const primaryContactInputSchema = z.object({
  firstName: z.string().trim().min(1, 'Enter the first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter the last name.').max(100),
  email: emailSchema,
  phone: phoneTextSchema.optional(),
});

function addPhoneIssue(
  context: z.RefinementCtx,
  phone: string,
  country: string,
  path: (string | number)[],
): void {
  if (!(COUNTRY_CODES as readonly string[]).includes(country)) return;
  const problem = phoneProblemOf(phone, country);
  if (problem) context.addIssue({ code: 'custom', path, message: problem });
}

/**
 * The create payload for a given today: the console's form (browser clock) and the server (its
 * clock, `services.now`) validate with this one definition.
 */
export function legalEntityCreateSchemaFor(today: Today) {
  return z
    .object({
      externalID: z.string().trim().min(1).max(100).optional(),
      // It drives the four-eyes rule and the review cycle (decisions.md, "Risk level").
      riskLevel: riskLevelSchema.default(DEFAULT_RISK_LEVEL),
      corporateInformation: corporateInformationInputSchemaFor(today),
      primaryContact: primaryContactInputSchema.optional(),
      corporateVerifications: z
        .array(withVerificationDateRules(verificationInputSchema, today))
        .max(20)
        .optional(),
      supportingDocuments: z.array(documentInputSchema).max(20).optional(),
    })
    .superRefine((input, context) => {
      // The contact's number is read in the company's country unless given in international form.
      const phone = input.primaryContact?.phone;
      const country = input.corporateInformation.country;
      if (phone && typeof country === 'string') {
        addPhoneIssue(context, phone, country, ['primaryContact', 'phone']);
      }
    });
}

/** The create payload checked against the wall clock's today (UTC). */
export const legalEntityCreateSchema = legalEntityCreateSchemaFor(wallClockToday);
export type LegalEntityCreateInput = z.input<typeof legalEntityCreateSchema>;
export type LegalEntityCreate = z.infer<typeof legalEntityCreateSchema>;
