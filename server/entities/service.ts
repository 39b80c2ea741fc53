import type { LegalEntity, NaturalPerson } from '../../contract/entities.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { assembleEntities, type Relations } from './read-model/assemble.ts';
import { entitiesRepository } from './repository.ts';

const FULL_DETAIL: Relations = {
  verifications: true,
  legalEntityDocuments: true,
  personDetail: true,
};

export async function getLegalEntity(db: Db, id: string): Promise<LegalEntity> {
  const row = await entitiesRepository(db).findEntity(id);
  if (row?.kind !== 'legal') throw new ApiError(404, `No legal entity has the id ${id}.`);
  const [entity] = await assembleEntities(db, [row], FULL_DETAIL);
  if (entity?.type !== 'Legal Entity') throw new Error(`Entity ${id} did not load.`);
  return entity;
}

export async function getNaturalPerson(db: Db, id: string): Promise<NaturalPerson> {
  const row = await entitiesRepository(db).findEntity(id);
  if (row?.kind !== 'person') throw new ApiError(404, `No natural person has the id ${id}.`);
  const [entity] = await assembleEntities(db, [row], FULL_DETAIL);
  if (entity?.type !== 'Natural Person') throw new Error(`Entity ${id} did not load.`);
  return entity;
}
