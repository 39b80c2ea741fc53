/**
 * The one normaliser: every variant a service may send (this project's records and the real
 * service's samples, vendor.md) becomes the one shape the console renders. The response schemas
 * in entities.ts call these functions; nothing else reads the raw variants.
 */
import type { z } from 'zod';
import { toAlpha2CountryCode } from './countries.ts';
import { currentVerificationOf, type DatedVerification } from './current-verification.ts';
import type { kycMetaDataInputSchema, naturalPersonInputSchema } from './entities.ts';

/** `0` and `"High"` alike: a numeric risk level is shown as its number. */
export function normaliseRiskLevel(level: string | number | null | undefined) {
  return typeof level === 'number' ? String(level) : level;
}

/** `USA` and `US` alike: three-letter codes become the two-letter code the console names. */
export function normaliseCountryCode(code: string | null | undefined) {
  return code ? toAlpha2CountryCode(code) : code;
}

/** A zone-less date and time with a fraction or a `T`, such as the real service's `2022-02-02 13:29:30.9211175`. */
const ZONELESS_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?$/;

/**
 * Timestamps are read as UTC (decisions.md); a zone-less one other than the interface's own
 * `YYYY-MM-DD HH:MM:SS` becomes ISO 8601 with milliseconds, which every date helper reads alike.
 */
export function normaliseTimestamp(value: string | null | undefined) {
  if (!value || /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) return value;
  const match = ZONELESS_TIMESTAMP.exec(value.trim());
  if (!match) return value;
  const [, date, time = '', fraction = ''] = match;
  const seconds = time.length === 5 ? `${time}:00` : time;
  return `${date}T${seconds}.${fraction.slice(0, 3).padEnd(3, '0')}Z`;
}

/** Issues, data sources and other lists a service may send as null. */
export function listOrEmpty<T>(list: T[] | null | undefined): T[] {
  return list ?? [];
}

/** KYC metadata as the pages read it; the list style of the real service is mapped onto it. */
export interface KycMetaData {
  externalID?: string | null;
  kycStatus?: string | null;
  riskLevel?: string | null;
  createdDateTime?: string | null;
  lastUpdate?: string | null;
  nextKYCReview?: string | null;
  tags?: string[];
  /** Who works on the record; only the real service's list carries it. */
  assignedUser?: string | null;
  /** The real service's natural person carries its ID here and nowhere else. */
  entityID?: string | null;
}

/**
 * The detail style (`kycStatus`, `createdDateTime`, `lastUpdate`) and the real service's list style
 * (`status`, `dateCreated`, `lastUpdated`, `assignedUser`, numeric `riskLevel`) become one shape.
 * Keys the service did not send stay absent, so this project's own records pass unchanged.
 */
export function normaliseKycMetaData(kyc: z.output<typeof kycMetaDataInputSchema>): KycMetaData {
  const normalised: KycMetaData = {};
  const set = <K extends keyof KycMetaData>(key: K, value: KycMetaData[K] | undefined) => {
    if (value !== undefined) normalised[key] = value;
  };
  set('externalID', kyc.externalID);
  set('kycStatus', kyc.kycStatus ?? kyc.status);
  set('riskLevel', normaliseRiskLevel(kyc.riskLevel));
  set('createdDateTime', normaliseTimestamp(kyc.createdDateTime ?? kyc.dateCreated));
  set('lastUpdate', normaliseTimestamp(kyc.lastUpdate ?? kyc.lastUpdated));
  set('nextKYCReview', kyc.nextKYCReview);
  set('tags', kyc.tags ?? undefined);
  set('assignedUser', kyc.assignedUser);
  set('entityID', kyc.entityID);
  return normalised;
}

/**
 * The real service's natural person by id has no top-level `id` or `type`: its ID is
 * `kycMetaData.entityID` (the schema refuses a person with neither).
 */
export function normaliseNaturalPerson<P extends z.output<typeof naturalPersonInputSchema>>(
  person: P,
): Omit<P, 'id' | 'type'> & { id: string; type: 'Natural Person' } {
  return {
    ...person,
    id: person.id ?? person.kycMetaData.entityID ?? '',
    type: 'Natural Person',
  };
}

/**
 * A legal entity's next review is its newest verification's (decisions.md), whatever the service
 * stored: the real service's record may disagree, and the console shows the rule's date in both
 * modes. The status stays as the service gave it; without verifications the stored date stands.
 */
export function normaliseNextReview<
  E extends { corporateVerifications?: DatedVerification[]; kycMetaData?: KycMetaData },
>(entity: E): E {
  const current = currentVerificationOf(entity.corporateVerifications ?? []);
  if (!current || !entity.kycMetaData || current.nextKYCReview === null) return entity;
  if (entity.kycMetaData.nextKYCReview === current.nextKYCReview) return entity;
  return {
    ...entity,
    kycMetaData: { ...entity.kycMetaData, nextKYCReview: current.nextKYCReview },
  };
}
