import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Held decisions now concern any entity (a person's review, a risk change), so the table is
  // rebuilt with its foreign key on entities and a kind; the rows keep their ids and states.
  await db.schema
    .createTable('pending_decisions_rebuilt')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('legal_entity_id', 'text', (c) =>
      c.notNull().references('entities.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('verification')
        .check(sql`kind in ('verification', 'person-review', 'risk-level')`),
    )
    .addColumn('verification', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_account', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'confirmed', 'rejected')`),
    )
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('reason', 'text')
    .execute();
  await sql`insert into pending_decisions_rebuilt (id, legal_entity_id, kind, verification, rule, requested_by, requested_by_account, requested_at, state, decided_by, decided_at, reason)
    select id, legal_entity_id, 'verification', verification, rule, requested_by, requested_by_account, requested_at, state, decided_by, decided_at, reason from pending_verifications`.execute(
    db,
  );
  await db.schema.dropTable('pending_verifications').execute();
  await db.schema
    .alterTable('pending_decisions_rebuilt')
    .renameTo('pending_verifications')
    .execute();
  // Still at most one waiting decision per entity, whatever its kind.
  await sql`create unique index pending_verifications_one_pending on pending_verifications (legal_entity_id) where state = 'pending'`.execute(
    db,
  );

  // A natural person's review outcomes; a held one stays `pending` until confirmed or rejected.
  await db.schema
    .createTable('person_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'text', (c) =>
      c.notNull().references('natural_persons.entity_id').onDelete('cascade'),
    )
    .addColumn('kyc_status', 'text', (c) => c.notNull())
    .addColumn('next_kyc_review', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('applied', 'pending', 'rejected')`),
    )
    .execute();
  await db.schema
    .createIndex('person_reviews_entity')
    .on('person_reviews')
    .columns(['entity_id', 'at', 'id'])
    .execute();
}
