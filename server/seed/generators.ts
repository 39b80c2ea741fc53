import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import {
  DOCUMENT_TYPES,
  KYC_STATUSES,
  type DocumentType,
  type KycStatus,
} from '../../contract/entities.ts';
import { currentVerificationOf } from '../../contract/current-verification.ts';
import { digitsOnly, withLeiCheckDigits } from '../../contract/identifiers.ts';
import { normalisedRegistrationNumber } from '../../contract/search-text.ts';
import type {
  DocumentChunkTable,
  DocumentTable,
  EntityInput,
  EntityLinkTable,
  LegalEntityInput,
  NaturalPersonInput,
  VerificationTable,
} from '../db/schema.ts';
import type { DocumentKeys } from '../documents/document-crypto.ts';
import { chunkRowsOf, sealedDocument } from '../documents/repository.ts';
import { datedVerificationOf } from '../entities/mappers.ts';
import {
  COMPANY_WORDS,
  COUNTRIES,
  type CountryProfile,
  fillPattern,
  LOCAL_COMPANY_WORDS,
  streetAddress,
  TRADE_ACTIVITIES,
} from './locales.ts';
import { buildPdf } from './pdf.ts';
import { Raster, type Rgb } from './png.ts';
import { createRandom, type Random } from './random.ts';

/** Rows of one batch, in insertion order of their tables; the seed repository adds the search columns. */
export interface SeedRows {
  entities: EntityInput[];
  legalEntities: LegalEntityInput[];
  naturalPersons: NaturalPersonInput[];
  links: Insertable<EntityLinkTable>[];
  verifications: Insertable<VerificationTable>[];
  documents: Insertable<DocumentTable>[];
  documentChunks: Insertable<DocumentChunkTable>[];
}

export interface GeneratorOptions {
  seed: number;
  /** Dates are drawn relative to this instant, so review dates stay meaningful. */
  now: Date;
  /** Entity and row ids; defaults to UUIDs drawn from the seed. */
  newId?: () => string;
  /** `registration|COUNTRY` keys already stored (registration normalised, as the unique index compares it). */
  takenRegistrations?: Set<string>;
  /** A fixed number of documents per legal entity; by default 0 to 4, most 1 to 4. */
  documentsPerEntity?: number;
  /** Reuse one generated PDF and one PNG for every document (bulk data stays small). */
  sharedFiles?: boolean;
  /** Seals each document's bytes; without it (tests that never read them) they are in the clear until the next start. */
  documentKeys?: DocumentKeys;
}

export const RELATIONSHIPS = {
  primaryContact: 'Primary Contact',
  officers: ['Director', 'CEO', 'Ultimate Beneficial Owner', 'Company Secretary'],
} as const;

const DAY = 86_400_000;

const COUNTRY_WEIGHTS = COUNTRIES.map((profile) => [profile, profile.weight] as const);

const TAGS = [
  'pep-screened',
  'sanctions-clear',
  'adverse-media-checked',
  'high-risk-jurisdiction',
  'enhanced-due-diligence',
  'key-account',
  'periodic-review',
  'onboarding-fast-track',
  'source-of-funds-verified',
  'manual-review',
] as const;

const VERIFICATION_ISSUES = [
  'Registered address differs from proof of address',
  'Director date of birth does not match identity document',
  'Proof of address older than three months',
  'Ultimate beneficial owner not yet identified',
  'Company status shown as dormant in the register',
  'Name mismatch between register and bank statement',
  'Possible adverse media match needs review',
  'Certificate of incorporation is not a certified copy',
] as const;

const STATUS_WEIGHTS: readonly (readonly [KycStatus, number])[] = [
  ['New', 10],
  ['Pending', 13],
  ['Review', 15],
  ['Escalated', 6],
  ['Accepted', 42],
  ['Rejected', 6],
  ['Expired', 8],
];

const RISK_BY_STATUS: Record<KycStatus, readonly (readonly [string, number])[]> = {
  New: [
    ['Low', 4],
    ['Medium', 4],
    ['High', 2],
  ],
  Pending: [
    ['Low', 4],
    ['Medium', 4],
    ['High', 2],
  ],
  Review: [
    ['Low', 3],
    ['Medium', 5],
    ['High', 2],
  ],
  Escalated: [
    ['Low', 1],
    ['Medium', 3],
    ['High', 6],
  ],
  Accepted: [
    ['Low', 6],
    ['Medium', 3],
    ['High', 1],
  ],
  Rejected: [
    ['Low', 1],
    ['Medium', 3],
    ['High', 6],
  ],
  Expired: [
    ['Low', 4],
    ['Medium', 4],
    ['High', 2],
  ],
};

type ReviewBucket = 'overdue' | 'soon' | 'later';
const REVIEW_BUCKETS: Record<KycStatus, readonly (readonly [ReviewBucket, number])[]> = {
  New: [
    ['soon', 5],
    ['later', 5],
  ],
  Pending: [
    ['overdue', 3],
    ['soon', 3],
    ['later', 4],
  ],
  Review: [
    ['overdue', 4],
    ['soon', 3],
    ['later', 3],
  ],
  Escalated: [
    ['overdue', 4],
    ['soon', 3],
    ['later', 3],
  ],
  Accepted: [
    ['overdue', 1],
    ['soon', 2],
    ['later', 7],
  ],
  Rejected: [
    ['overdue', 3],
    ['later', 7],
  ],
  Expired: [['overdue', 1]],
};

const EARLIER_VERIFICATION_STATUSES: readonly (readonly [KycStatus, number])[] = [
  ['Accepted', 8],
  ['Review', 1],
  ['Pending', 1],
];

/** Where verifications come from: generic sources plus the country's own register. */
const sourcesOf = (country: CountryProfile): readonly (readonly [string, number])[] => [
  ['Manual Entry', 30],
  [country.registry, 25],
  ['Dun & Bradstreet', 15],
  ['GLEIF', 15],
  ['OpenCorporates', 5],
  ['Client Portal Upload', 10],
];

const REVIEW_PERIOD_DAYS: Record<string, number> = { Low: 1095, Medium: 730, High: 365 };

const DOCUMENT_WEIGHTS: readonly (readonly [DocumentType, number])[] = [
  ['Certificate of Incorporation', 25],
  ['Proof of Address', 25],
  ['Bank Statement', 18],
  ['Proof of Wealth', 10],
  ['Proof of Identity', 10],
  ['Other', 12],
];

// Demo addresses use the reserved `.example` TLD (RFC 2606) so a configured SMTP server never mails a real person.
const MAIL_PROVIDERS = ['mail.example', 'post.example', 'inbox.example', 'webmail.example'];

const BANKS = [
  'Barclays',
  'HSBC',
  'Deutsche Bank',
  'BNP Paribas',
  'ING',
  'Santander',
  'Nordea',
  'UBS',
  'Citibank',
  'DBS',
  'Rabobank',
];

/** Plain ASCII lower case for e-mail addresses and file names. */
export function slugify(text: string, separator: '-' | '.' | '_' = '-'): string {
  const slug = text
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/[łŁ]/g, 'l')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return slug.replaceAll(' ', separator);
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const receivedAt = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const monthYear = (date: Date) =>
  `${MONTHS[date.getUTCMonth()] ?? ''} ${String(date.getUTCFullYear())}`;

interface FileSpec {
  type: DocumentType;
  mimeType: 'application/pdf' | 'image/png';
  title: string;
  lines: string[];
  accent: Rgb;
}

/** A generated document file: a one-page PDF letter or a PNG that looks like a scan. */
function renderFile(spec: FileSpec, random: Random): Buffer {
  if (spec.mimeType === 'application/pdf') {
    return buildPdf({
      title: spec.title,
      lines: spec.lines,
      footer: 'Specimen generated by KYC Desk for demonstration. Not a real document.',
      accent: [spec.accent[0] / 255, spec.accent[1] / 255, spec.accent[2] / 255],
    });
  }
  const identity = spec.type === 'Proof of Identity';
  const raster = new Raster(identity ? 320 : 240, identity ? 200 : 320, [250, 250, 247]);
  raster.fill(0, 0, raster.width, identity ? 34 : 44, spec.accent);
  raster.fill(12, 10, 24, identity ? 14 : 24, [255, 255, 255]);
  const textLeft = identity ? 120 : 20;
  if (identity) {
    raster.fill(16, 50, 88, 110, [182, 196, 214]);
    raster.fill(42, 66, 36, 36, [120, 135, 160]);
    raster.fill(30, 108, 60, 44, [120, 135, 160]);
  }
  for (let line = 0; line < (identity ? 6 : 14); line++) {
    const width = random.int(identity ? 80 : 110, identity ? 180 : 200);
    raster.fill(
      textLeft,
      (identity ? 52 : 68) + line * (identity ? 16 : 17),
      width,
      6,
      [96, 96, 104],
    );
  }
  if (identity) {
    raster.fill(16, 172, 288, 6, [40, 40, 48]);
    raster.fill(16, 184, 288, 6, [40, 40, 48]);
  } else {
    raster.fill(20, 296, 200, 2, spec.accent);
  }
  return raster.toPng();
}

interface LegalEntityDraft {
  id: string;
  country: CountryProfile;
  companyName: string;
  domain: string;
  trade: string;
  created: Date;
  status: KycStatus;
  risk: string;
  registrationNumber: string;
  primaryAddress: string;
  city: string;
}

/** Builds deterministic, varied KYC data in batches; demo data and bulk data share it. */
export function createGenerator(options: GeneratorOptions) {
  const random = createRandom(options.seed);
  const now = options.now.getTime();
  const newId = options.newId ?? (() => random.uuid());
  const takenRegistrations = options.takenRegistrations ?? new Set<string>();
  const takenDuns = new Set<string>();
  const sharedFiles = new Map<string, { bytes: Buffer; sha256: string }>();
  let legalEntitiesMade = 0;

  const daysAgo = (days: number) => new Date(now - days * DAY - random.int(0, DAY - 1));
  const between = (from: number, to: number) =>
    new Date(from + random.next() * Math.max(0, to - from));

  function personName(country: CountryProfile) {
    return { first: random.pick(country.names.given), last: random.pick(country.names.family) };
  }

  function companyName(country: CountryProfile): { name: string; base: string; trade: string } {
    const trade = random.pick(COMPANY_WORDS.trades);
    const style = random.int(1, 20);
    const localWords = LOCAL_COMPANY_WORDS[country.code];
    const leading = () =>
      localWords && random.chance(0.4)
        ? random.pick(localWords)
        : random.pick(COMPANY_WORDS.leading);
    const base =
      style <= 10
        ? `${leading()} ${trade}`
        : style <= 13
          ? `${random.pick(country.names.family)} & ${random.pick(country.names.family)}`
          : style <= 17
            ? `${random.pick(country.names.family)} ${trade}`
            : `${leading()} ${random.pick(['Group', 'International', 'Global', 'Industries'])}`;
    const name = `${base} ${random.pick(country.suffixes)}`;
    // Some registers print names in capitals: ÖSTERREICHISCHE HOLDINGS GMBH, GROSSFELD ENERGY AG.
    return { name: random.chance(0.08) ? name.toUpperCase() : name, base, trade };
  }

  function registrationNumber(country: CountryProfile): string {
    for (;;) {
      const candidate = country.registrationNumber(random);
      const key = `${normalisedRegistrationNumber(candidate)}|${country.code}`;
      if (!takenRegistrations.has(key)) {
        takenRegistrations.add(key);
        return candidate;
      }
    }
  }

  /** Nine digits as D&B issues them; about a quarter start with zero. */
  function duns(): string {
    for (;;) {
      const candidate = random.chance(0.25)
        ? `0${random.digits(8)}`
        : `${random.int(1, 9)}${random.digits(8)}`;
      if (!takenDuns.has(candidate)) {
        takenDuns.add(candidate);
        return candidate;
      }
    }
  }

  function lei(country: CountryProfile): string {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const body = Array.from({ length: 12 }, () => alphabet[random.int(0, 35)]).join('');
    return withLeiCheckDigits(`${country.leiIssuer}00${body}`);
  }

  function tags(status: KycStatus, risk: string): string {
    const chosen = new Set<string>();
    if (status !== 'New' && random.chance(0.6)) chosen.add('pep-screened');
    if (status === 'Accepted' && random.chance(0.5)) chosen.add('sanctions-clear');
    if (risk === 'High')
      chosen.add(random.pick(['enhanced-due-diligence', 'high-risk-jurisdiction']));
    if (random.chance(0.25)) chosen.add(random.pick(TAGS));
    return JSON.stringify([...chosen]);
  }

  function externalId(): string | null {
    if (!random.chance(0.35)) return null;
    return random.pick([
      `CRM-${random.digits(6)}`,
      `SF-00${random.digits(5)}`,
      `ACC-${random.int(10, 99)}-${random.digits(4)}`,
    ]);
  }

  function file(spec: FileSpec): { bytes: Buffer; sha256: string } {
    const cached = options.sharedFiles ? sharedFiles.get(spec.mimeType) : undefined;
    if (cached) return cached;
    const bytes = options.sharedFiles
      ? renderFile(
          { ...spec, title: 'Specimen Document', lines: ['Bulk data generated by npm run seed.'] },
          random,
        )
      : renderFile(spec, random);
    const made = { bytes, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
    if (options.sharedFiles) sharedFiles.set(spec.mimeType, made);
    return made;
  }

  function documentFor(
    rows: SeedRows,
    owner: { id: string; created: Date; status: string; name: string; country: CountryProfile },
    type: DocumentType,
    details: { registrationNumber?: string; address: string; holder: string },
  ) {
    const received = between(owner.created.getTime(), now);
    const pngShare = type === 'Proof of Identity' ? 0.75 : type === 'Proof of Address' ? 0.3 : 0.08;
    const mimeType = random.chance(pngShare) ? 'image/png' : 'application/pdf';
    const extension = mimeType === 'image/png' ? 'png' : 'pdf';
    const slug = slugify(owner.name);
    const period = monthYear(received);
    const yearMonth = isoDate(received).slice(0, 7);
    const bank = random.pick(BANKS);
    const accountEnding = random.digits(4);
    const dated = `Date: ${isoDate(received)}`;
    const variants: Record<
      DocumentType,
      () => { fileName: string; description: string; title: string; lines: string[] }[]
    > = {
      'Certificate of Incorporation': () => [
        {
          fileName: `certificate-of-incorporation-${slug}.${extension}`,
          description: `Certified copy issued by ${owner.country.registry}`,
          title: 'Certificate of Incorporation',
          lines: [
            `Company name: ${owner.name}`,
            `Company number: ${details.registrationNumber ?? ''}`,
            `Register: ${owner.country.registry}`,
            '',
            'This is to certify that the company named above is incorporated',
            'and that its registered office is situated at:',
            details.address,
            '',
            dated,
          ],
        },
        {
          fileName: `CoI_${slugify(details.registrationNumber ?? slug, '_')}.${extension}`,
          description: 'Certificate of incorporation with the articles of association',
          title: 'Certificate of Incorporation',
          lines: [
            owner.name,
            `Registration number ${details.registrationNumber ?? ''}`,
            details.address,
            '',
            dated,
          ],
        },
      ],
      'Proof of Address': () => [
        {
          fileName: `utility-bill-${yearMonth}.${extension}`,
          description: `${random.pick(['Electricity', 'Gas', 'Water', 'Broadband'])} bill, ${period}`,
          title: 'Utility Bill',
          lines: [
            `Account holder: ${details.holder}`,
            `Supply address: ${details.address}`,
            `Billing period: ${period}`,
            `Amount due: ${String(random.int(80, 2400))}.${random.digits(2)}`,
            '',
            dated,
          ],
        },
        {
          fileName: `lease-agreement-${slug}.${extension}`,
          description: 'Commercial lease for the registered office',
          title: 'Lease Agreement (extract)',
          lines: [
            `Tenant: ${details.holder}`,
            `Premises: ${details.address}`,
            `Term: ${String(random.int(3, 10))} years`,
            '',
            dated,
          ],
        },
      ],
      'Bank Statement': () => [
        {
          fileName: `bank-statement-${yearMonth}.${extension}`,
          description: `${bank} statement for the account ending ${accountEnding}, ${period}`,
          title: `${bank} Account Statement`,
          lines: [
            `Account holder: ${details.holder}`,
            `Account ending: ${accountEnding}`,
            `Statement period: ${period}`,
            `Opening balance: ${String(random.int(1000, 900000))}.${random.digits(2)}`,
            `Closing balance: ${String(random.int(1000, 900000))}.${random.digits(2)}`,
            '',
            dated,
          ],
        },
      ],
      'Proof of Wealth': () => [
        {
          fileName: `source-of-funds-letter-${slug}.${extension}`,
          description: 'Accountant letter confirming the source of funds',
          title: 'Source of Wealth Declaration',
          lines: [
            `Client: ${details.holder}`,
            'We confirm that the funds originate from trading profits',
            'and retained earnings as shown in the audited accounts.',
            '',
            dated,
          ],
        },
        {
          fileName: `audited-accounts-${received.getUTCFullYear() - 1}.${extension}`,
          description: `Audited financial statements for ${String(received.getUTCFullYear() - 1)}`,
          title: 'Audited Financial Statements',
          lines: [
            details.holder,
            `Financial year ${String(received.getUTCFullYear() - 1)}`,
            `Revenue: ${String(random.int(1, 900))}.${random.digits(1)} million`,
            '',
            dated,
          ],
        },
      ],
      'Proof of Identity': () => [
        {
          fileName: `passport-${slugify(details.holder)}.${extension}`,
          description: `Passport of ${details.holder}`,
          title: 'Passport (copy)',
          lines: [
            `Name: ${details.holder}`,
            `Document number: ${random.pick(['P', 'X', 'C'])}${random.digits(8)}`,
            `Expiry: ${isoDate(new Date(now + random.int(200, 3000) * DAY))}`,
            '',
            dated,
          ],
        },
        {
          fileName: `id-card-${slugify(details.holder)}.${extension}`,
          description: `National identity card of ${details.holder}`,
          title: 'Identity Card (copy)',
          lines: [`Name: ${details.holder}`, `Card number: ${random.digits(9)}`, '', dated],
        },
      ],
      Other: () => [
        {
          fileName: `board-resolution-${received.getUTCFullYear()}.${extension}`,
          description: 'Board resolution appointing the authorised signatories',
          title: 'Board Resolution',
          lines: [
            owner.name,
            'The board resolved to appoint the authorised signatories',
            'listed in the schedule to this resolution.',
            '',
            dated,
          ],
        },
        {
          fileName: `shareholder-register-${slug}.${extension}`,
          description: 'Register of shareholders',
          title: 'Register of Shareholders',
          lines: [owner.name, `Issued shares: ${String(random.int(100, 1000000))}`, '', dated],
        },
      ],
    };
    const chosen = random.pick(variants[type]());
    const accent: Rgb = [random.int(20, 150), random.int(40, 130), random.int(90, 200)];
    const content = file({ type, mimeType, title: chosen.title, lines: chosen.lines, accent });
    const id = newId();
    const approved =
      owner.status === 'Accepted'
        ? random.chance(0.9)
        : owner.status === 'New'
          ? false
          : random.chance(0.5);
    const row = {
      id,
      entity_id: owner.id,
      file_name: chosen.fileName,
      type,
      description: random.chance(0.25) ? null : chosen.description,
      date_received: receivedAt(received),
      approved: approved ? 1 : 0,
      mime_type: mimeType,
      file_size: content.bytes.length,
      sha256: content.sha256,
    };
    const stored = options.documentKeys
      ? sealedDocument(options.documentKeys, { row, bytes: content.bytes })
      : { row, chunks: chunkRowsOf(id, content.bytes) };
    rows.documents.push(stored.row);
    rows.documentChunks.push(...stored.chunks);
  }

  /** Mostly different types per entity; only bank statements repeat (several months) unless the count demands it. */
  function documentTypes(count: number, entityIndex: number): DocumentType[] {
    const types: DocumentType[] = [];
    // The first entities cover every document type once.
    const forced = DOCUMENT_TYPES[entityIndex];
    if (count > 0 && forced) types.push(forced);
    while (types.length < count) {
      let type = random.weighted(DOCUMENT_WEIGHTS);
      for (let retry = 0; retry < 4 && type !== 'Bank Statement' && types.includes(type); retry++) {
        type = random.weighted(DOCUMENT_WEIGHTS);
      }
      types.push(type);
    }
    return types;
  }

  function legalEntity(rows: SeedRows): LegalEntityDraft {
    const index = legalEntitiesMade++;
    // The first entities visit every country once, so even a small data set spans all of them.
    const country = COUNTRIES[index] ?? random.weighted(COUNTRY_WEIGHTS);
    // The first seven cover every status, so even a tiny data set shows the whole vocabulary.
    const status =
      index < KYC_STATUSES.length
        ? (KYC_STATUSES[index] as KycStatus)
        : random.weighted(STATUS_WEIGHTS);
    const risk = random.weighted(RISK_BY_STATUS[status]);
    const ageDays =
      status === 'New'
        ? random.int(0, 45)
        : status === 'Expired'
          ? random.int(400, 1095)
          : random.int(2, 1095);
    const created = daysAgo(ageDays);
    const { name, base, trade } = companyName(country);
    const domain = `${slugify(base)}.${country.tld}.example`;
    const [city, stateProvince, postalPattern] = random.pick(country.cities);
    const phone = random.chance(0.95) ? fillPattern(random, random.pick(country.phones)) : null;
    const id = newId();
    const registration = registrationNumber(country);
    const primaryAddress = streetAddress(random, country);
    const lastUpdate = status === 'New' ? created : between(created.getTime(), now);

    const verificationCount =
      status === 'New' ? random.int(0, 1) : random.chance(0.93) ? random.int(1, 3) : 0;
    const period = (REVIEW_PERIOD_DAYS[risk] ?? 730) * DAY;
    const schedule = Array.from({ length: verificationCount }, () => {
      const bucket = random.weighted(REVIEW_BUCKETS[status]);
      const ahead =
        bucket === 'overdue'
          ? -random.int(1, 150)
          : bucket === 'soon'
            ? random.int(0, 30)
            : random.int(31, 540);
      // A review cannot fall due before the entity existed; such a draw becomes an upcoming one.
      const nextReview =
        now + ahead * DAY <= created.getTime() ? now + random.int(1, 30) * DAY : now + ahead * DAY;
      const verified = Math.min(
        now,
        Math.max(created.getTime(), nextReview - period + random.int(-20, 20) * DAY),
      );
      return { verified: new Date(verified), nextReview: new Date(nextReview) };
    }).sort((a, b) => a.verified.getTime() - b.verified.getTime());
    const verifications = schedule.map(({ verified, nextReview }, v) => {
      // The newest verification carries the entity's status; older ones were accepted or lapsed.
      const verificationStatus: KycStatus =
        v === verificationCount - 1
          ? status
          : nextReview.getTime() < now
            ? 'Expired'
            : random.weighted(EARLIER_VERIFICATION_STATUSES);
      const troubled = ['Escalated', 'Rejected', 'Review'].includes(verificationStatus);
      const issueCount = troubled ? random.int(0, 2) : random.chance(0.08) ? 1 : 0;
      return {
        id: newId(),
        legal_entity_id: id,
        legal_entity_verification: random.chance(0.85) ? 1 : 0,
        verification_status: verificationStatus,
        verification_date: isoDate(verified),
        verification_source: random.weighted(sourcesOf(country)),
        business_statement: businessStatement(name, trade, country, city),
        next_review_date: isoDate(nextReview),
        verification_issues: JSON.stringify(random.sample(VERIFICATION_ISSUES, issueCount)),
        // A millisecond apart, so that the order recorded (created_at) is the schedule's even on one day.
        created_at: new Date(verified.getTime() + v).toISOString(),
      };
    });
    const current = currentVerificationOf(verifications.map(datedVerificationOf));

    rows.entities.push({
      id,
      kind: 'legal',
      created_at: created.toISOString(),
      external_id: externalId(),
      kyc_status: current?.kycStatus ?? status,
      risk_level: risk,
      last_update: lastUpdate.toISOString(),
      next_kyc_review: current?.nextKYCReview ?? null,
      tags: tags(status, risk),
    });
    rows.legalEntities.push({
      entity_id: id,
      company_name: name,
      registration_number: registration,
      date_of_incorporation: random.chance(0.97)
        ? isoDate(daysAgo(ageDays + random.int(30, 40 * 365)))
        : null,
      duns: duns(),
      glei: lei(country),
      company_phone: phone,
      company_phone_digits: phone ? digitsOnly(phone) : '',
      email: `${random.pick(['info', 'compliance', 'contact', 'office', 'finance', 'legal'])}@${domain}`,
      primary_address: primaryAddress,
      city,
      state_province: stateProvince,
      country: country.code,
      postal_code: fillPattern(random, postalPattern),
    });
    rows.verifications.push(...verifications);

    const documentCount =
      options.documentsPerEntity ?? (random.chance(0.93) ? random.int(1, 4) : 0);
    const owner = { id, created, status, name, country };
    const address = `${primaryAddress}, ${city}`;
    for (const type of documentTypes(documentCount, index)) {
      const director = personName(country);
      const holder = type === 'Proof of Identity' ? `${director.first} ${director.last}` : name;
      documentFor(rows, owner, type, { registrationNumber: registration, address, holder });
    }
    return {
      id,
      country,
      companyName: name,
      domain,
      trade,
      created,
      status,
      risk,
      registrationNumber: registration,
      primaryAddress,
      city,
    };
  }

  function businessStatement(
    name: string,
    trade: string,
    country: CountryProfile,
    city: string,
  ): string {
    const activity = TRADE_ACTIVITIES[trade] ?? 'general trading';
    return random.pick([
      `${name} is engaged in ${activity}, operating from ${city}.`,
      `The company's principal activity is ${activity}; customers are mainly in ${country.code} and neighbouring markets.`,
      `${name} reports ${activity} as its business; ${String(random.int(5, 900))} employees as of the last filing.`,
      `Principal activity confirmed against the register: ${activity}.`,
    ]);
  }

  function naturalPerson(rows: SeedRows, home: LegalEntityDraft) {
    const country = home.country;
    const { first, last } = personName(country);
    const middle = random.chance(0.25) ? random.pick(country.names.given) : null;
    const status = random.weighted(STATUS_WEIGHTS);
    const risk = random.weighted(RISK_BY_STATUS[status]);
    const created = new Date(
      Math.min(now, home.created.getTime() + random.int(0, 10) * DAY + random.int(0, DAY)),
    );
    const [city, stateProvince, postalPattern] = random.pick(country.cities);
    const hasAddress = random.chance(0.85);
    const id = newId();
    const mailbox = `${slugify(first, '.')}.${slugify(last, '.')}`;
    rows.entities.push({
      id,
      kind: 'person',
      created_at: created.toISOString(),
      external_id: externalId(),
      kyc_status: status,
      risk_level: risk,
      last_update: between(created.getTime(), now).toISOString(),
      next_kyc_review: random.chance(0.6) ? isoDate(daysAgo(-random.int(-120, 540))) : null,
      tags: tags(status, risk),
    });
    rows.naturalPersons.push({
      entity_id: id,
      first_name: first,
      middle_name: middle,
      last_name: last,
      date_of_birth: random.chance(0.95) ? isoDate(daysAgo(random.int(22 * 365, 78 * 365))) : null,
      email: random.chance(0.45)
        ? `${mailbox}@${home.domain}`
        : `${mailbox}${random.chance(0.4) ? String(random.int(1, 99)) : ''}@${random.pick(MAIL_PROVIDERS)}`,
      phone: random.chance(0.9) ? fillPattern(random, random.pick(country.mobiles)) : null,
      address: hasAddress ? streetAddress(random, country) : null,
      city: hasAddress ? city : null,
      state_province: hasAddress ? stateProvince : null,
      country_code: country.code,
      postal_code: hasAddress ? fillPattern(random, postalPattern) : null,
    });
    const fullName = `${first} ${last}`;
    const owner = { id, created, status, name: fullName, country };
    if (random.chance(0.4))
      documentFor(rows, owner, 'Proof of Identity', { address: home.city, holder: fullName });
    if (random.chance(0.1))
      documentFor(rows, owner, 'Proof of Address', {
        address: `${home.primaryAddress}, ${home.city}`,
        holder: fullName,
      });
    return { id, country: country.code };
  }

  /** Links people to companies: each person to their home company, most companies one primary contact. */
  function link(
    rows: SeedRows,
    companies: LegalEntityDraft[],
    people: { id: string; country: string; home: number }[],
  ) {
    if (people.length === 0) return;
    const seen = new Set<string>();
    const add = (company: LegalEntityDraft, personId: string, relationship: string) => {
      const key = `${company.id}|${personId}|${relationship}`;
      if (seen.has(key)) return;
      seen.add(key);
      rows.links.push({ legal_entity_id: company.id, person_id: personId, relationship });
    };
    const primaryOf = new Map<number, string>();
    const byCountry = new Map<string, string[]>();
    for (const person of people)
      byCountry.set(person.country, [...(byCountry.get(person.country) ?? []), person.id]);
    const someone = (company: LegalEntityDraft) => {
      const local = byCountry.get(company.country.code);
      return local && random.chance(0.8) ? random.pick(local) : random.pick(people).id;
    };

    for (const person of people) {
      const company = companies[person.home];
      if (!company) continue;
      if (!primaryOf.has(person.home) && random.chance(0.92)) {
        primaryOf.set(person.home, person.id);
        add(company, person.id, RELATIONSHIPS.primaryContact);
      } else {
        add(company, person.id, random.pick(RELATIONSHIPS.officers));
      }
    }
    companies.forEach((company, index) => {
      let primary = primaryOf.get(index);
      if (primary === undefined && random.chance(0.75)) {
        primary = someone(company);
        primaryOf.set(index, primary);
        add(company, primary, RELATIONSHIPS.primaryContact);
      }
      // The primary contact often holds an office too; officers from elsewhere are rarer.
      if (primary !== undefined && random.chance(0.4)) {
        add(company, primary, random.pick(RELATIONSHIPS.officers));
      }
      if (random.chance(0.12)) add(company, someone(company), random.pick(RELATIONSHIPS.officers));
    });
  }

  return {
    /** A batch of legal entities and natural persons, linked among themselves. */
    batch(legalEntityCount: number, personCount: number): SeedRows {
      const rows: SeedRows = {
        entities: [],
        legalEntities: [],
        naturalPersons: [],
        links: [],
        verifications: [],
        documents: [],
        documentChunks: [],
      };
      const companies = Array.from({ length: legalEntityCount }, () => legalEntity(rows));
      const people = Array.from({ length: personCount }, (_, j) => {
        const home = Math.min(
          legalEntityCount - 1,
          Math.floor((j * legalEntityCount) / personCount),
        );
        const company = companies[home];
        if (!company) throw new Error('People need at least one legal entity to belong to.');
        return { ...naturalPerson(rows, company), home };
      });
      link(rows, companies, people);
      return rows;
    },
  };
}
