import crypto from 'node:crypto';
import type { LegalEntityCreateInput } from '../../contract/legal-entity-create.ts';
import { withLeiCheckDigits } from '../../contract/identifiers.ts';
import type { TestServer } from './harness.ts';

/** A unique token for names and numbers, so that tests never collide on registration number. */
export function uniqueSuffix(): string {
  return crypto.randomBytes(5).toString('hex').toUpperCase();
}

/** A valid LEI built from a random 18-character prefix. */
export function validLei(): string {
  return withLeiCheckDigits(`5493${crypto.randomBytes(7).toString('hex').toUpperCase()}`);
}

/** A complete, valid create payload; `overrides` replace top-level parts. */
export type PayloadOverrides = Omit<Partial<LegalEntityCreateInput>, 'corporateInformation'> & {
  corporateInformation?: Partial<LegalEntityCreateInput['corporateInformation']>;
};

export function legalEntityPayload(overrides: PayloadOverrides = {}): LegalEntityCreateInput {
  const suffix = uniqueSuffix();
  const { corporateInformation, ...rest } = overrides;
  return {
    externalID: `EXT-${suffix}`,
    primaryContact: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${suffix.toLowerCase()}@example.com`,
      phone: '+44 20 7946 0000',
    },
    corporateVerifications: [
      {
        legalEntityVerification: true,
        verificationStatus: 'Accepted',
        verificationDate: '2025-03-01',
        verificationSource: 'Manual Entry',
        businessStatement: 'Registered trading company.',
        nextReviewDate: '2099-03-01',
        verificationIssues: [],
      },
    ],
    supportingDocuments: [],
    ...rest,
    corporateInformation: {
      companyName: `Acme ${suffix} Ltd`,
      registrationNumber: `RN-${suffix}`,
      country: 'GB',
      dateofIncorporation: '2010-05-17',
      duns: String(crypto.randomInt(100_000_000, 999_999_999)),
      glei: validLei(),
      companyPhone: '+44 (20) 7946-0958',
      email: `info.${suffix.toLowerCase()}@example.com`,
      primaryAddress: '1 High Street',
      city: 'London',
      stateProvince: 'Greater London',
      postalCode: 'EC1A 1BB',
      ...corporateInformation,
    },
  };
}

/** POSTs a create payload through the real endpoint. */
export function postLegalEntity(
  server: TestServer,
  payload: unknown,
  init: { headers?: Record<string, string>; auth?: 'apiKey' | 'token' | 'none' } = {},
) {
  return server.request('/api/v2/entities/legal-entities', {
    method: 'POST',
    auth: init.auth ?? 'apiKey',
    headers: { 'Content-Type': 'application/json', ...init.headers },
    body: JSON.stringify(payload),
  });
}

/** A valid payload whose corporate information is changed, possibly to invalid values. */
export function payloadWithCorporateInformation(fields: Record<string, unknown>) {
  const payload = legalEntityPayload();
  return { ...payload, corporateInformation: { ...payload.corporateInformation, ...fields } };
}
