import type { DocumentMetadata, Entity, LinkedEntity } from '../../../contract/entities.ts';
import type { Db } from '../../db/database.ts';
import type { EntityRow } from '../../db/schema.ts';
import { documentMetadataOf } from '../../documents/mappers.ts';
import { documentsRepository } from '../../documents/repository.ts';
import { legalEntityOf, naturalPersonOf, verificationOf } from '../mappers.ts';
import { entitiesRepository } from '../repository.ts';

/** Which relations to load besides the ones every entity carries. */
export interface Relations {
  verifications: boolean;
  legalEntityDocuments: boolean;
  /** Documents and linked legal entities of natural persons (the by-id view). */
  personDetail: boolean;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Wire entities for these rows, in their order; one query per relation, never one per row. */
export async function assembleEntities(
  db: Db,
  rows: readonly EntityRow[],
  relations: Relations,
): Promise<Entity[]> {
  const entities = entitiesRepository(db);
  const legalIds = rows.filter((row) => row.kind === 'legal').map((row) => row.id);
  const personIds = rows.filter((row) => row.kind === 'person').map((row) => row.id);
  const documentOwnerIds = [
    ...(relations.legalEntityDocuments ? legalIds : []),
    ...(relations.personDetail ? personIds : []),
  ];

  const legalRows = await entities.legalEntitiesByIds(legalIds);
  const personRows = await entities.naturalPersonsByIds(personIds);
  const legalLinks = groupBy(
    await entities.linksOfLegalEntities(legalIds),
    (link) => link.legal_entity_id,
  );
  const personLinks = groupBy(
    relations.personDetail ? await entities.linksOfPersons(personIds) : [],
    (link) => link.person_id,
  );
  const verifications = groupBy(
    relations.verifications ? await entities.verificationsOf(legalIds) : [],
    (verification) => verification.legal_entity_id,
  );
  const documents = groupBy(
    await documentsRepository(db).metadataOfEntities(documentOwnerIds),
    (document) => document.entity_id,
  );
  const legalById = new Map(legalRows.map((row) => [row.entity_id, row]));
  const personById = new Map(personRows.map((row) => [row.entity_id, row]));
  const documentsOf = (id: string): DocumentMetadata[] =>
    (documents.get(id) ?? []).map(documentMetadataOf);

  return rows.map((row): Entity => {
    if (row.kind === 'legal') {
      const legal = legalById.get(row.id);
      if (!legal) throw new Error(`Entity ${row.id} is a legal entity without corporate data.`);
      return legalEntityOf(row, legal, {
        linkedEntities: (legalLinks.get(row.id) ?? []).map((link): LinkedEntity => ({
          relationship: link.relationship,
          entityID: link.person_id,
        })),
        ...(relations.verifications
          ? { verifications: (verifications.get(row.id) ?? []).map(verificationOf) }
          : {}),
        ...(relations.legalEntityDocuments ? { documents: documentsOf(row.id) } : {}),
      });
    }
    const person = personById.get(row.id);
    if (!person) throw new Error(`Entity ${row.id} is a natural person without personal data.`);
    return naturalPersonOf(
      row,
      person,
      relations.personDetail
        ? {
            linkedEntities: (personLinks.get(row.id) ?? []).map((link): LinkedEntity => ({
              relationship: link.relationship,
              entityID: link.legal_entity_id,
            })),
            documents: documentsOf(row.id),
          }
        : {},
    );
  });
}
