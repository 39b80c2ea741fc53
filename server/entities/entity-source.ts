import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { entitiesRepository } from './repository.ts';

/** `legal` for a legal entity, `person` for a natural person (the `entities.kind` column). */
export type EntityKind = 'legal' | 'person';

/**
 * What a resource that keeps its own records of an entity (notes, client updates, assignment)
 * needs to know about it: whether it exists. The local database answers in embedded mode; in
 * gateway mode the identity service does (`gateway/upstream-entity.ts`).
 */
export interface EntitySource {
  /** Whether an entity has this id: of `kind` when given, else of either kind. */
  exists(request: FastifyRequest, id: string, kind?: EntityKind): Promise<boolean>;
}

/** Embedded mode: the entities are this server's own. */
export function localEntitySource(db: Db): EntitySource {
  return {
    async exists(_request, id, kind) {
      const entity = await entitiesRepository(db).findEntity(id);
      return entity !== undefined && (kind === undefined || entity.kind === kind);
    },
  };
}

/** 404 unless the entity exists, in the words each resource has always used. */
export async function requireEntity(
  source: EntitySource,
  request: FastifyRequest,
  id: string,
  kind?: EntityKind,
): Promise<void> {
  if (await source.exists(request, id, kind)) return;
  throw new ApiError(
    404,
    kind === 'legal' ? `No legal entity with id ${id}.` : `No entity has the id ${id}.`,
  );
}
