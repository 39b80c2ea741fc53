import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { PRIMARY_CONTACT } from '../../contract/entities.ts';
import type { Db } from '../db/database.ts';
import type { DocumentKeys } from '../documents/document-crypto.ts';
import { documentsRepository } from '../documents/repository.ts';
import type { Database, EntityInput, LegalEntityInput, NaturalPersonInput } from '../db/schema.ts';
import {
  withEntitySearchColumns,
  withLegalEntitySearchColumns,
  withNaturalPersonSearchColumns,
} from '../entities/read-model/search-columns.ts';

type Executor = Db | Transaction<Database>;

export type EntityOverrides = Partial<Omit<EntityInput, 'id' | 'kind'>>;
export type LegalEntityOverrides = Partial<Omit<LegalEntityInput, 'entity_id'>>;
export type NaturalPersonOverrides = Partial<Omit<NaturalPersonInput, 'entity_id'>>;

export interface InsertedLegalEntity {
  legalEntityId: string;
  primaryContactId: string;
  directorId: string;
}

let sequence = 0;
/** Distinct per call so fixtures never collide on the unique registration number. */
function nextNumber(): number {
  sequence += 1;
  return sequence;
}

/** An `entities` row as the fixtures write it: new, low risk, no review date, a fresh id. */
export function entityRowOf(kind: 'legal' | 'person', overrides: EntityOverrides = {}) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    kind,
    created_at: now,
    external_id: null,
    kyc_status: 'New',
    risk_level: 'Low',
    last_update: now,
    next_kyc_review: null,
    tags: '[]',
    ...overrides,
  };
}

async function insertEntityRow(
  executor: Executor,
  kind: 'legal' | 'person',
  overrides: EntityOverrides,
): Promise<string> {
  const row = entityRowOf(kind, overrides);
  await executor
    .insertInto('entities')
    // No subject: the triggers copy its country and name, so tests of databases migrated only
    // part of the way (before 0029's name order) write with this fixture too.
    .values(withEntitySearchColumns(row, null))
    .execute();
  return row.id;
}

async function insertPersonRows(
  executor: Executor,
  overrides: NaturalPersonOverrides,
): Promise<string> {
  const id = await insertEntityRow(executor, 'person', {});
  const n = nextNumber();
  await executor
    .insertInto('natural_persons')
    .values(
      withNaturalPersonSearchColumns({
        entity_id: id,
        first_name: `Person${n}`,
        middle_name: null,
        last_name: 'Fixture',
        date_of_birth: '1980-01-01',
        email: `person${n}@example.com`,
        phone: null,
        address: null,
        city: null,
        state_province: null,
        country_code: 'GB',
        postal_code: null,
        ...overrides,
      }),
    )
    .execute();
  return id;
}

/** Inserts a natural person linked to nothing; returns its id. */
export async function insertNaturalPerson(
  db: Db,
  overrides: NaturalPersonOverrides = {},
): Promise<string> {
  return db.transaction().execute((trx) => insertPersonRows(trx, overrides));
}

/**
 * Inserts a legal entity with two linked natural persons, a 'Primary Contact' and a 'Director',
 * both with e-mail addresses, in one transaction.
 */
export async function insertLegalEntity(
  db: Db,
  overrides: {
    entity?: EntityOverrides;
    legalEntity?: LegalEntityOverrides;
    primaryContact?: NaturalPersonOverrides;
    director?: NaturalPersonOverrides;
  } = {},
): Promise<InsertedLegalEntity> {
  return db.transaction().execute(async (trx) => {
    const legalEntityId = await insertEntityRow(trx, 'legal', overrides.entity ?? {});
    const n = nextNumber();
    await trx
      .insertInto('legal_entities')
      .values(
        withLegalEntitySearchColumns({
          entity_id: legalEntityId,
          company_name: `Fixture Holdings ${n} Ltd`,
          registration_number: `FX${String(n).padStart(6, '0')}-${legalEntityId.slice(0, 8)}`,
          date_of_incorporation: '2010-05-17',
          duns: '123456789',
          glei: '',
          company_phone: '+44 20 7946 0000',
          company_phone_digits: '442079460000',
          email: `office${n}@fixture-holdings.example`,
          primary_address: '1 Fixture Street',
          city: 'London',
          state_province: '',
          country: 'GB',
          postal_code: 'EC1A 1AA',
          ...overrides.legalEntity,
        }),
      )
      .execute();
    const primaryContactId = await insertPersonRows(trx, {
      first_name: 'Ada',
      last_name: 'Primary',
      email: `ada.primary${n}@example.com`,
      ...overrides.primaryContact,
    });
    const directorId = await insertPersonRows(trx, {
      first_name: 'Dan',
      last_name: 'Director',
      email: `dan.director${n}@example.com`,
      ...overrides.director,
    });
    await trx
      .insertInto('entity_links')
      .values([
        {
          legal_entity_id: legalEntityId,
          person_id: primaryContactId,
          relationship: PRIMARY_CONTACT,
        },
        { legal_entity_id: legalEntityId, person_id: directorId, relationship: 'Director' },
      ])
      .execute();
    return { legalEntityId, primaryContactId, directorId };
  });
}

/** A document's bytes as uploaded: its pieces in order, decrypted, joined. */
export async function storedDocumentBytes(
  executor: Executor,
  documentId: string,
  keys: DocumentKeys,
): Promise<Buffer> {
  const documents = documentsRepository(executor);
  const document = await documents.findStored(documentId);
  if (!document) throw new Error(`No document ${documentId}`);
  const stored = await documents.plainBytesOf(document, keys);
  const pieces: Buffer[] = [];
  for (let seq = 0; seq < stored.chunkCount; seq += 1) {
    const piece = await stored.chunk(seq);
    if (!piece) throw new Error(`Piece ${String(seq)} of ${documentId} is missing`);
    pieces.push(piece);
  }
  return Buffer.concat(pieces);
}
