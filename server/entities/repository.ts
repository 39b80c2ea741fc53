import type { Selectable } from 'kysely';
import { PRIMARY_CONTACT } from '../../contract/entities.ts';
import { normalisedRegistrationNumber } from '../../contract/search-text.ts';
import type { Db } from '../db/database.ts';
import type {
  Database,
  EntityInput,
  EntityRow,
  LegalEntityInput,
  LegalEntityRow,
  NaturalPersonInput,
  NaturalPersonRow,
  VerificationRow,
} from '../db/schema.ts';
import {
  naturalPersonWithSearchColumns,
  withEntitySearchColumns,
  withLegalEntitySearchColumns,
} from './read-model/search-columns.ts';

export type EntityLinkRow = Selectable<Database['entity_links']>;
export type IdempotencyKeyRow = Selectable<Database['idempotency_keys']>;

export interface NewLegalEntity {
  entity: EntityInput;
  legalEntity: LegalEntityInput;
  verifications: VerificationRow[];
  primaryContact?: { entity: EntityInput; person: NaturalPersonInput };
}

/**
 * The only place with SQL for entities' own rows, their links, verifications and idempotency keys;
 * the list records and the searches are the read model's (read-model/repository.ts).
 */
export function entitiesRepository(db: Db) {
  return {
    /** Runs `work` in one transaction, with repositories bound to it. */
    inTransaction<T>(work: (transaction: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    entitiesByIds(ids: readonly string[]): Promise<EntityRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('entities').selectAll().where('id', 'in', ids).execute();
    },

    findEntity(id: string): Promise<EntityRow | undefined> {
      return db.selectFrom('entities').selectAll().where('id', '=', id).executeTakeFirst();
    },

    legalEntitiesByIds(ids: readonly string[]): Promise<LegalEntityRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('legal_entities').selectAll().where('entity_id', 'in', ids).execute();
    },

    naturalPersonsByIds(ids: readonly string[]): Promise<NaturalPersonRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('natural_persons').selectAll().where('entity_id', 'in', ids).execute();
    },

    /** Links of these legal entities, the primary contact first. */
    linksOfLegalEntities(ids: readonly string[]): Promise<EntityLinkRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('entity_links')
        .selectAll()
        .where('legal_entity_id', 'in', ids)
        .orderBy((eb) => eb.case().when('relationship', '=', PRIMARY_CONTACT).then(0).else(1).end())
        .orderBy('relationship')
        .orderBy('person_id')
        .execute();
    },

    linksOfPersons(ids: readonly string[]): Promise<EntityLinkRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('entity_links')
        .selectAll()
        .where('person_id', 'in', ids)
        .orderBy('relationship')
        .orderBy('legal_entity_id')
        .execute();
    },

    verificationsOf(legalEntityIds: readonly string[]): Promise<VerificationRow[]> {
      if (legalEntityIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('verifications')
        .selectAll()
        .where('legal_entity_id', 'in', legalEntityIds)
        .orderBy('verification_date')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** The legal entity whose registration number is this one once normalised, in this country. */
    findByRegistration(
      registrationNumber: string,
      country: string,
    ): Promise<
      { entity_id: string; registration_number: string; company_name: string } | undefined
    > {
      return db
        .selectFrom('legal_entities')
        .select(['entity_id', 'registration_number', 'company_name'])
        .where(
          'registration_number_normalised',
          '=',
          normalisedRegistrationNumber(registrationNumber),
        )
        .where('country', '=', country)
        .executeTakeFirst();
    },

    /** Inserts the legal entity, its verifications and its primary contact; call inside a transaction. */
    async insertLegalEntity(records: NewLegalEntity) {
      const legalEntity = withLegalEntitySearchColumns(records.legalEntity);
      const given = records.primaryContact;
      const contact = given && {
        entity: given.entity,
        person: naturalPersonWithSearchColumns(
          given.person,
          given.person.country_code ?? records.legalEntity.country,
        ),
      };
      await db
        .insertInto('entities')
        .values([
          withEntitySearchColumns(records.entity, legalEntity),
          ...(contact ? [withEntitySearchColumns(contact.entity, contact.person)] : []),
        ])
        .execute();
      await db.insertInto('legal_entities').values(legalEntity).execute();
      if (records.verifications.length > 0) {
        await db.insertInto('verifications').values(records.verifications).execute();
      }
      if (contact) {
        await db.insertInto('natural_persons').values(contact.person).execute();
        await db
          .insertInto('entity_links')
          .values({
            legal_entity_id: records.entity.id,
            person_id: contact.entity.id,
            relationship: PRIMARY_CONTACT,
          })
          .execute();
      }
    },

    findIdempotencyKey(accountId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
      return db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirst();
    },

    async insertIdempotencyKey(row: IdempotencyKeyRow) {
      await db.insertInto('idempotency_keys').values(row).execute();
    },
  };
}

export type EntitiesRepository = ReturnType<typeof entitiesRepository>;
