import type { Entity } from '../../../contract/entities.ts';
import type { Db } from '../../db/database.ts';
import type { EntityRow } from '../../db/schema.ts';
import { assembleEntities, type Relations } from './assemble.ts';
import { entitiesRepository } from '../repository.ts';
import {
  type EntityListRecordRow,
  type ListRelationKeys,
  readModelRepository,
} from './repository.ts';

/** What a list record holds: the list's optional relations in full, so every flag combination reads it. */
const RECORDED_RELATIONS: Relations = {
  verifications: true,
  legalEntityDocuments: true,
  personDetail: false,
};

/** Entities per rebuild transaction: a few queries of hundreds of ids each. */
const REBUILD_BATCH = 500;

export interface ListFlags {
  corporateVerification: boolean;
  supportingDocuments: boolean;
}

/**
 * An entity's list JSON cut where the flagged relations go. A legal entity's keys are in the
 * mapper's order (id, type, corporateInformation, [corporateVerifications], [supportingDocuments],
 * kycMetaData, linkedEntities), so head + chosen relations + tail is JSON.stringify of the entity
 * the list path would have built.
 */
export function listRecordOf(entity: Entity, created_at: string): EntityListRecordRow {
  if (entity.type === 'Natural Person') {
    return {
      entity_id: entity.id,
      created_at,
      kind: 'person',
      head: JSON.stringify(entity),
      verifications: null,
      documents: null,
      tail: '',
    };
  }
  const { id, type, corporateInformation, kycMetaData, linkedEntities } = entity;
  return {
    entity_id: id,
    created_at,
    kind: 'legal',
    head: JSON.stringify({ id, type, corporateInformation }).slice(0, -1),
    verifications: JSON.stringify(entity.corporateVerifications ?? []),
    documents: JSON.stringify(entity.supportingDocuments ?? []),
    tail: `,${JSON.stringify({ kycMetaData, linkedEntities }).slice(1)}`,
  };
}

type RecordParts = Pick<EntityListRecordRow, 'head' | 'verifications' | 'documents' | 'tail'>;

/** What precedes each stored relation in an entity's list JSON, for the relations these flags include. */
export function relationKeysOf(flags: ListFlags): ListRelationKeys {
  return {
    verifications: flags.corporateVerification ? ',"corporateVerifications":' : undefined,
    documents: flags.supportingDocuments ? ',"supportingDocuments":' : undefined,
  };
}

/**
 * The entity's JSON as the list sends it with these flags; the repository's listPageJson puts
 * stored records together the same way in SQL.
 */
export function listJsonOf(record: RecordParts, flags: ListFlags): string {
  const keys = relationKeysOf(flags);
  let json = record.head;
  if (keys.verifications !== undefined && record.verifications !== null) {
    json += keys.verifications + record.verifications;
  }
  if (keys.documents !== undefined && record.documents !== null) {
    json += keys.documents + record.documents;
  }
  return json + record.tail;
}

/** List records built from the tables, in the order of `rows`. */
export async function buildListRecords(
  db: Db,
  rows: readonly EntityRow[],
): Promise<EntityListRecordRow[]> {
  const entities = await assembleEntities(db, rows, RECORDED_RELATIONS);
  return entities.map((entity, index) => listRecordOf(entity, rows[index]?.created_at ?? ''));
}

/**
 * Stores the list records of these entities as the tables now say; every writer of an entity, its
 * corporate or personal data, links, verifications or documents calls it last in its transaction.
 * A writer that does not leaves the list correct (triggers drop the record) but slower.
 */
export async function refreshListRecords(db: Db, ids: readonly string[]): Promise<void> {
  const rows = await entitiesRepository(db).entitiesByIds([...new Set(ids)]);
  await readModelRepository(db).writeListRecords(await buildListRecords(db, rows));
}

/**
 * Builds every missing list record in list order, so a page's records are stored together; a
 * transaction per batch (migration 0013, and the seed after its bulk load).
 */
export async function rebuildListRecords(db: Db): Promise<number> {
  let after = { created_at: '', id: '' };
  let written = 0;
  // Inside a migration the caller's transaction holds every batch.
  const inTransaction = <T>(work: (transaction: Db) => Promise<T>) =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  for (;;) {
    const batch = await inTransaction(async (transaction) => {
      const repository = readModelRepository(transaction);
      const rows = await repository.entitiesWithoutListRecord(after, REBUILD_BATCH);
      await repository.writeListRecords(await buildListRecords(transaction, rows));
      return rows;
    });
    const last = batch.at(-1);
    if (!last) return written;
    written += batch.length;
    after = last;
  }
}
