import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { entitiesRepository } from '../entities/repository.ts';
import { createGenerator } from '../seed/generators.ts';
import { seedRepository } from '../seed/seed-repository.ts';
import { entityRowOf } from '../testing/fixtures.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';

let server: TestServer;
let db: Db;

beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded' });
  db = server.app.services.db;
});

afterAll(async () => {
  await server.close();
});

/**
 * Updates of `entities` rows made while `write` runs in one transaction, triggers included:
 * PostgreSQL's own count; on SQLite a temporary trigger's (the connection's own).
 */
async function entityUpdatesDuring(write: (trx: Db) => Promise<void>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (testEngine === 'postgres') {
      // The backend's counts not yet reported, earlier transactions' included: taken before and after.
      const updates = async () => {
        const { rows } = await sql<{ n: string }>`
          select n_tup_upd as n from pg_stat_xact_user_tables where relname = 'entities'`.execute(
          trx,
        );
        return Number(rows[0]?.n ?? 0);
      };
      const before = await updates();
      await write(trx);
      return (await updates()) - before;
    }
    await sql`create temp table entity_updates (id text)`.execute(trx);
    await sql`create temp trigger count_entity_updates after update on main.entities begin
        insert into entity_updates values (new.id);
      end`.execute(trx);
    await write(trx);
    const { rows } = await sql<{ n: number }>`select count(*) as n from entity_updates`.execute(
      trx,
    );
    await sql`drop trigger temp.count_entity_updates`.execute(trx);
    await sql`drop table temp.entity_updates`.execute(trx);
    return rows[0]?.n ?? 0;
  });
}

/** Entities whose country or name order is not what 0011's and 0029's triggers copy from their subject. */
async function entitiesWithStaleCopies() {
  const { rows } = await sql<{ id: string }>`
    select e.id from entities e
      left join legal_entities l on l.entity_id = e.id
      left join natural_persons p on p.entity_id = e.id
    where coalesce(e.country, '') <> coalesce(l.country, upper(p.country_code), '')
      or e.name_order <> coalesce(l.company_name_folded, p.last_name_folded || ' ' || p.first_name_folded)`.execute(
    db,
  );
  return rows.map((row) => row.id);
}

describe(`an entity's copies of its country and name (${testEngine})`, () => {
  it('are written with the entity by onboarding and the seed, so no trigger rewrites the row', async () => {
    const company = entityRowOf('legal');
    const contact = entityRowOf('person');
    const onboarding = await entityUpdatesDuring((trx) =>
      entitiesRepository(trx).insertLegalEntity({
        entity: company,
        legalEntity: {
          entity_id: company.id,
          company_name: 'Société Étoile Copies SA',
          registration_number: `COPY-${company.id.slice(0, 8)}`,
          date_of_incorporation: null,
          duns: '',
          glei: '',
          company_phone: null,
          company_phone_digits: '',
          email: 'office@etoile.example',
          primary_address: '1 Rue',
          city: 'Lyon',
          state_province: '',
          country: 'FR',
          postal_code: '69001',
        },
        verifications: [],
        primaryContact: {
          entity: contact,
          person: {
            entity_id: contact.id,
            first_name: 'Zoë',
            middle_name: null,
            last_name: 'Ångström',
            date_of_birth: null,
            email: null,
            phone: null,
            address: null,
            city: null,
            state_province: null,
            country_code: 'se',
            postal_code: null,
          },
        },
      }),
    );
    const batch = createGenerator({
      seed: 41,
      now: new Date('2026-11-01T00:00:00Z'),
      documentsPerEntity: 0,
    }).batch(15, 15);
    const seed = await entityUpdatesDuring(async (trx) => {
      await seedRepository(trx).insert(batch);
    });

    expect({ onboarding, seed }).toEqual({ onboarding: 0, seed: 0 });
    const stored = await db
      .selectFrom('entities')
      .select(['id', 'country', 'name_order'])
      .where('id', 'in', [company.id, contact.id])
      .execute();
    expect(stored).toEqual(
      expect.arrayContaining([
        { id: company.id, country: 'FR', name_order: 'societe etoile copies sa' },
        { id: contact.id, country: 'SE', name_order: 'angstrom zoe' },
      ]),
    );
    expect(await entitiesWithStaleCopies()).toEqual([]);
  });

  it('are still kept by the triggers when a name or country changes, and only then', async () => {
    const [company] = await db
      .selectFrom('legal_entities')
      .select('entity_id')
      .orderBy('entity_id')
      .limit(1)
      .execute();
    const [person] = await db
      .selectFrom('natural_persons')
      .select('entity_id')
      .orderBy('entity_id')
      .limit(1)
      .execute();
    if (!company || !person) throw new Error('nothing seeded');
    const renamed = await entityUpdatesDuring(async (trx) => {
      await trx
        .updateTable('legal_entities')
        .set({ company_name: 'Renamed Ltd', company_name_folded: 'renamed ltd', country: 'DE' })
        .where('entity_id', '=', company.entity_id)
        .execute();
      await trx
        .updateTable('natural_persons')
        .set({ country_code: 'pt' })
        .where('entity_id', '=', person.entity_id)
        .execute();
    });
    const unchanged = await entityUpdatesDuring(async (trx) => {
      await trx
        .updateTable('legal_entities')
        .set({ company_name_folded: 'renamed ltd', country: 'DE' })
        .where('entity_id', '=', company.entity_id)
        .execute();
    });

    // The company's country and name order (one trigger each), the person's country.
    expect({ renamed, unchanged }).toEqual({ renamed: 3, unchanged: 0 });
    expect(
      await db
        .selectFrom('entities')
        .select(['country', 'name_order'])
        .where('id', '=', company.entity_id)
        .executeTakeFirst(),
    ).toEqual({ country: 'DE', name_order: 'renamed ltd' });
    expect(await entitiesWithStaleCopies()).toEqual([]);
  });
});
