import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { DOCUMENT_TYPES, KYC_STATUSES, RISK_LEVELS } from '../../contract/entities.ts';
import { digitsOnly, isValidLei } from '../../contract/identifiers.ts';
import { normalisedRegistrationNumber } from '../../contract/search-text.ts';
import { currentVerificationOf } from '../../contract/current-verification.ts';
import { phoneProblemOf } from '../../contract/phone.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { verifyPassword } from '../auth/secrets.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { loadDocumentKeys } from '../documents/document-keys.ts';
import { datedVerificationOf } from '../entities/mappers.ts';
import { entitiesRepository } from '../entities/repository.ts';
import { loadConfig } from '../env.ts';
import type { AppServices } from '../services.ts';
import { storedDocumentBytes } from '../testing/fixtures.ts';
import { ensureDemoData } from './demo.ts';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const TODAY = '2026-03-15';
const IN_30_DAYS = '2026-04-14';

const tempDirs: string[] = [];
const openDbs: Db[] = [];

async function freshServices(): Promise<AppServices> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-seed-'));
  tempDirs.push(dataDir);
  const { db } = await openDatabase(dataDir);
  openDbs.push(db);
  const config = loadConfig({ DATA_DIR: dataDir });
  return {
    config,
    db,
    signingKey: new Uint8Array(32),
    documentKeys: loadDocumentKeys(config, { info: () => undefined, warn: () => undefined }),
    now: () => NOW,
  };
}

async function tableCounts(db: Db) {
  const tables = [
    'entities',
    'legal_entities',
    'natural_persons',
    'entity_links',
    'verifications',
    'documents',
    'document_chunks',
    'accounts',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = row.n;
  }
  return counts;
}

/** Checks a PDF's header, trailer and that every xref offset points at its `N 0 obj`. */
function checkPdf(bytes: Buffer) {
  const text = bytes.toString('latin1');
  expect(text.startsWith('%PDF-')).toBe(true);
  expect(text.replace(/\r?\n$/, '').endsWith('%%EOF')).toBe(true);
  const startxref = /startxref\r?\n(\d+)\r?\n%%EOF\r?\n?$/.exec(text);
  expect(startxref).not.toBeNull();
  const xrefOffset = Number(startxref?.[1]);
  expect(text.startsWith('xref', xrefOffset)).toBe(true);
  const table = /^xref\r?\n0 (\d+)\r?\n/.exec(text.slice(xrefOffset));
  const size = Number(table?.[1]);
  expect(size).toBeGreaterThan(3);
  const entriesStart = xrefOffset + (table?.[0].length ?? 0);
  for (let object = 0; object < size; object++) {
    const entry = text.slice(entriesStart + object * 20, entriesStart + (object + 1) * 20);
    expect(entry).toMatch(/^\d{10} \d{5} [fn](?: \n|\r\n| \r)$/);
    if (object === 0) continue;
    const offset = Number(entry.slice(0, 10));
    expect(text.startsWith(`${String(object)} 0 obj`, offset)).toBe(true);
  }
  expect(text).toMatch(/\/Root 1 0 R/);
  const stream = /<< \/Length (\d+) >>\nstream\n/.exec(text);
  expect(stream).not.toBeNull();
  const streamStart = (stream?.index ?? 0) + (stream?.[0].length ?? 0);
  expect(text.startsWith('\nendstream', streamStart + Number(stream?.[1]))).toBe(true);
  return text;
}

/** Checks a PNG's signature, every chunk CRC and the inflated size of its image data. */
function checkPng(bytes: Buffer) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const types: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  let channels = 0;
  let offset = 8;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    // node:zlib's CRC-32 is an implementation independent of the generator's own.
    expect(zlib.crc32(bytes.subarray(offset + 4, offset + 8 + length))).toBe(crc);
    types.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[data[9] ?? -1] ?? 0;
    }
    if (type === 'IDAT') idat.push(Buffer.from(data));
    offset += 12 + length;
  }
  expect(offset).toBe(bytes.length);
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  expect(width).toBeGreaterThanOrEqual(200);
  expect(height).toBeGreaterThanOrEqual(120);
  expect(channels).toBeGreaterThan(0);
  expect(zlib.inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * channels));
}

afterAll(async () => {
  for (const db of openDbs) await db.destroy();
  for (const dir of tempDirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('ensureDemoData on an empty database', () => {
  let services: AppServices;
  let demo: Awaited<ReturnType<typeof ensureDemoData>>;

  beforeAll(async () => {
    services = await freshServices();
    demo = await ensureDemoData(services);
  }, 120_000);

  it('creates the demo reviewer, who can sign in with the returned password', async () => {
    expect(demo?.username).toBe('demo');
    expect(demo?.password).toMatch(/^[A-Za-z0-9]{20}$/);
    const account = await accountsRepository(services.db).findByUsername('demo');
    expect(account?.display_name).toBe('Demo Reviewer');
    expect(account?.disabled).toBe(0);
    expect(await verifyPassword(demo?.password ?? '', account?.password_hash ?? '')).toBe(true);
    expect(await verifyPassword(`${demo?.password ?? ''}x`, account?.password_hash ?? '')).toBe(
      false,
    );
  });

  it('holds at least 150 legal entities in at least 25 countries, with every status and risk level', async () => {
    const rows = await services.db
      .selectFrom('legal_entities')
      .innerJoin('entities', 'entities.id', 'legal_entities.entity_id')
      .selectAll()
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(150);
    expect(new Set(rows.map((row) => row.country)).size).toBeGreaterThanOrEqual(25);
    expect(new Set(rows.map((row) => row.kyc_status))).toEqual(new Set(KYC_STATUSES));
    expect(new Set(rows.map((row) => row.risk_level))).toEqual(new Set(RISK_LEVELS));
    expect(rows.every((row) => row.kind === 'legal')).toBe(true);

    for (const row of rows) {
      expect(isValidLei(row.glei), row.glei).toBe(true);
      expect(row.duns).toMatch(/^\d{9}$/);
      expect(row.company_phone_digits).toBe(row.company_phone ? digitsOnly(row.company_phone) : '');
      // The create schema's phone rule holds for demo data too.
      if (row.company_phone) {
        expect(phoneProblemOf(row.company_phone, row.country ?? ''), row.company_phone).toBeNull();
      }
      if (row.date_of_incorporation) expect(row.date_of_incorporation <= TODAY).toBe(true);
      expect(row.email).toMatch(/^[a-z]+@[a-z0-9-]+(\.[a-z]+)+$/);
      expect(row.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(row.created_at <= NOW.toISOString()).toBe(true);
      expect(row.last_update >= row.created_at).toBe(true);
      expect(JSON.parse(row.tags)).toEqual(expect.any(Array));
      expect(row.company_name.length).toBeGreaterThan(3);
      expect(row.primary_address).not.toBe('');
      expect(row.city).not.toBe('');
      if (row.date_of_incorporation !== null) {
        expect(row.date_of_incorporation).toMatch(/^\d{4}-\d\d-\d\d$/);
      }
    }
    expect(rows.some((row) => row.duns.startsWith('0'))).toBe(true);
    expect(rows.some((row) => row.company_phone !== null && /[ ()-]/.test(row.company_phone))).toBe(
      true,
    );
    expect(rows.some((row) => row.external_id !== null)).toBe(true);
    expect(rows.some((row) => row.external_id === null)).toBe(true);
    expect(rows.some((row) => row.tags.includes('pep-screened'))).toBe(true);
    const keys = rows.map(
      (row) => `${normalisedRegistrationNumber(row.registration_number)}|${row.country}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
    // created_at spreads over most of three years, not one instant.
    const created = rows.map((row) => Date.parse(row.created_at)).sort((a, b) => a - b);
    const spreadDays = ((created.at(-1) ?? 0) - (created[0] ?? 0)) / 86_400_000;
    expect(spreadDays).toBeGreaterThan(700);
  });

  it('holds 100 natural persons, each linked, with at most one primary contact per legal entity', async () => {
    const persons = await services.db.selectFrom('natural_persons').selectAll().execute();
    expect(persons).toHaveLength(100);
    expect(persons.some((person) => person.middle_name !== null)).toBe(true);
    for (const person of persons) {
      expect(person.first_name).not.toBe('');
      expect(person.country_code).toMatch(/^[A-Z]{2}$/);
      if (person.date_of_birth) expect(person.date_of_birth).toMatch(/^\d{4}-\d\d-\d\d$/);
      if (person.email) expect(person.email).toMatch(/^[a-z0-9.]+@[a-z0-9.-]+\.[a-z]+$/);
      if (person.phone && person.country_code) {
        expect(phoneProblemOf(person.phone, person.country_code), person.phone).toBeNull();
      }
    }

    const links = await services.db.selectFrom('entity_links').selectAll().execute();
    const primaryPerEntity = new Map<string, number>();
    const linksPerPerson = new Map<string, Set<string>>();
    for (const link of links) {
      if (link.relationship === 'Primary Contact') {
        primaryPerEntity.set(
          link.legal_entity_id,
          (primaryPerEntity.get(link.legal_entity_id) ?? 0) + 1,
        );
      }
      const companies = linksPerPerson.get(link.person_id) ?? new Set();
      companies.add(link.legal_entity_id);
      linksPerPerson.set(link.person_id, companies);
    }
    const legalCount = (await tableCounts(services.db)).legal_entities ?? 0;
    expect(Math.max(...primaryPerEntity.values())).toBe(1);
    expect(primaryPerEntity.size).toBeGreaterThan(legalCount * 0.7);
    expect(primaryPerEntity.size).toBeLessThan(legalCount);
    expect(new Set(links.map((link) => link.relationship))).toEqual(
      new Set([
        'Primary Contact',
        'Director',
        'CEO',
        'Ultimate Beneficial Owner',
        'Company Secretary',
      ]),
    );
    expect(persons.every((person) => linksPerPerson.has(person.entity_id))).toBe(true);
    expect([...linksPerPerson.values()].some((companies) => companies.size >= 2)).toBe(true);
  });

  it('gives most legal entities 1 to 3 verifications with overdue, imminent and later reviews', async () => {
    const verifications = await services.db.selectFrom('verifications').selectAll().execute();
    const entities = await services.db
      .selectFrom('entities')
      .select(['id', 'kyc_status', 'next_kyc_review'])
      .where('kind', '=', 'legal')
      .execute();
    const perEntity = new Map<string, string[]>();
    for (const verification of verifications) {
      expect(KYC_STATUSES).toContain(verification.verification_status);
      expect(verification.verification_date).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(verification.verification_date <= TODAY).toBe(true);
      expect(verification.next_review_date > verification.verification_date).toBe(true);
      expect(verification.business_statement.length).toBeGreaterThan(10);
      expect(JSON.parse(verification.verification_issues)).toEqual(expect.any(Array));
      perEntity.set(verification.legal_entity_id, [
        ...(perEntity.get(verification.legal_entity_id) ?? []),
        verification.next_review_date,
      ]);
    }
    expect(perEntity.size).toBeGreaterThan(entities.length * 0.8);
    expect(Math.max(...[...perEntity.values()].map((dates) => dates.length))).toBe(3);
    const reviews = verifications.map((verification) => verification.next_review_date);
    expect(reviews.some((date) => date < TODAY)).toBe(true);
    expect(reviews.some((date) => date >= TODAY && date <= IN_30_DAYS)).toBe(true);
    expect(reviews.some((date) => date > IN_30_DAYS)).toBe(true);
    const sources = new Set(verifications.map((verification) => verification.verification_source));
    for (const source of ['Manual Entry', 'Companies House', 'Dun & Bradstreet', 'GLEIF']) {
      expect(sources).toContain(source);
    }
    const issues = verifications.map(
      (verification) => JSON.parse(verification.verification_issues) as string[],
    );
    expect(issues.filter((list) => list.length === 0).length).toBeGreaterThan(issues.length / 2);
    expect(issues.some((list) => list.length > 0 && typeof list[0] === 'string')).toBe(true);
    // kycStatus and nextKYCReview are the newest verification's (by date, then the order recorded).
    const stored = await entitiesRepository(services.db).verificationsOf(
      entities.map((entity) => entity.id),
    );
    let withVerifications = 0;
    for (const entity of entities) {
      const current = currentVerificationOf(
        stored.filter((row) => row.legal_entity_id === entity.id).map(datedVerificationOf),
      );
      if (current) withVerifications++;
      expect({ status: entity.kyc_status, review: entity.next_kyc_review }).toEqual({
        status: current?.kycStatus ?? entity.kyc_status,
        review: current?.nextKYCReview ?? null,
      });
    }
    expect(withVerifications).toBe(perEntity.size);
  });

  it('stores real PDF and PNG files of every document type, with matching size and SHA-256', async () => {
    const documents = await services.db
      .selectFrom('documents')
      .innerJoin('entities', 'entities.id', 'documents.entity_id')
      .selectAll('documents')
      .select('entities.kind')
      .execute();
    const counts = await tableCounts(services.db);
    expect(documents).toHaveLength(counts.documents ?? -1);
    // Encrypted as they are written (docs/security.md), under the server's key.
    expect(new Set(documents.map((document) => document.key_id))).toEqual(
      new Set([services.documentKeys.current.id]),
    );
    expect(new Set(documents.map((document) => document.type))).toEqual(new Set(DOCUMENT_TYPES));
    expect(new Set(documents.map((document) => document.mime_type))).toEqual(
      new Set(['application/pdf', 'image/png']),
    );
    expect(
      documents.some(
        (document) => document.kind === 'person' && document.type === 'Proof of Identity',
      ),
    ).toBe(true);
    expect(documents.some((document) => document.description === null)).toBe(true);
    expect(documents.some((document) => document.approved === 1)).toBe(true);
    expect(documents.some((document) => document.approved === 0)).toBe(true);
    for (const document of documents) {
      const bytes = await storedDocumentBytes(services.db, document.id, services.documentKeys);
      expect(document.file_size).toBe(bytes.length);
      expect(document.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
      expect(document.date_received).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(document.date_received <= TODAY + ' 12:00:00').toBe(true);
      if (document.mime_type === 'application/pdf') {
        expect(document.file_name).toMatch(/^[A-Za-z0-9_.-]+\.pdf$/);
        expect(checkPdf(bytes)).toContain('Helvetica');
      } else {
        expect(document.file_name).toMatch(/^[A-Za-z0-9_.-]+\.png$/);
        checkPng(bytes);
      }
    }
    expect(new Set(documents.map((document) => document.sha256)).size).toBe(documents.length);

    const perLegalEntity = new Map<string, number>();
    for (const document of documents.filter((document) => document.kind === 'legal')) {
      perLegalEntity.set(document.entity_id, (perLegalEntity.get(document.entity_id) ?? 0) + 1);
    }
    expect(perLegalEntity.size).toBeGreaterThan((counts.legal_entities ?? 0) * 0.8);
    expect(Math.max(...perLegalEntity.values())).toBe(4);
  });

  it('puts the company name of a certificate into its PDF text', async () => {
    const certificate = await services.db
      .selectFrom('documents')
      .innerJoin('legal_entities', 'legal_entities.entity_id', 'documents.entity_id')
      .select(['documents.id', 'legal_entities.company_name'])
      .where('documents.type', '=', 'Certificate of Incorporation')
      .where('documents.mime_type', '=', 'application/pdf')
      .where('legal_entities.country', '=', 'GB')
      .executeTakeFirstOrThrow();
    const bytes = await storedDocumentBytes(services.db, certificate.id, services.documentKeys);
    expect(bytes.toString('latin1')).toContain(
      certificate.company_name.replace(/[()\\]/g, (char) => `\\${char}`),
    );
  });

  it('returns null and changes nothing on a later start', async () => {
    const before = await tableCounts(services.db);
    expect(await ensureDemoData(services)).toBeNull();
    expect(await tableCounts(services.db)).toEqual(before);
  });
});

describe('ensureDemoData elsewhere', () => {
  it('builds the same data set from its fixed seed', async () => {
    const first = await freshServices();
    const second = await freshServices();
    await ensureDemoData(first);
    await ensureDemoData(second);
    const snapshot = (db: Db) =>
      db
        .selectFrom('legal_entities')
        .select(['entity_id', 'company_name', 'registration_number', 'glei', 'duns'])
        .orderBy('entity_id')
        .execute();
    const rows = await snapshot(first.db);
    expect(rows.length).toBeGreaterThanOrEqual(150);
    expect(await snapshot(second.db)).toEqual(rows);
  }, 120_000);

  it('does nothing when an account named demo already exists', async () => {
    const services = await freshServices();
    await accountsRepository(services.db).insert({
      username: 'Demo',
      displayName: 'Someone',
      passwordHash: 'x',
      apiKeyHash: 'y',
      createdAt: NOW.toISOString(),
    });
    expect(await ensureDemoData(services)).toBeNull();
    const counts = await tableCounts(services.db);
    expect(counts.entities).toBe(0);
    expect(counts.accounts).toBe(1);
  });
});
