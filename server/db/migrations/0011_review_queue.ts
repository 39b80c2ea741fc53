import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The queue filters by country, which lives in legal_entities or natural_persons; a copy on
  // entities lets one index serve the window, the order, every filter and the counts.
  const postgres = engineOf(db) === 'postgres';
  await sql`alter table entities add column country text`.execute(db);
  await sql`update entities set country = coalesce(
      (select country from legal_entities where legal_entities.entity_id = entities.id),
      (select upper(country_code) from natural_persons where natural_persons.entity_id = entities.id))`.execute(
    db,
  );
  // Every writer inserts the entity first, then its legal-entity or person row: copied here.
  if (postgres) {
    await sql`create function legal_entities_review_country() returns trigger language plpgsql as $$
      begin
        update entities set country = new.country where id = new.entity_id;
        return null;
      end $$`.execute(db);
    await sql`create trigger legal_entities_review_country after insert or update of country on legal_entities
      for each row execute function legal_entities_review_country()`.execute(db);
    await sql`create function natural_persons_review_country() returns trigger language plpgsql as $$
      begin
        update entities set country = upper(new.country_code) where id = new.entity_id;
        return null;
      end $$`.execute(db);
    await sql`create trigger natural_persons_review_country after insert or update of country_code on natural_persons
      for each row execute function natural_persons_review_country()`.execute(db);
  } else {
    for (const [name, event, table, value] of [
      ['legal_entities_review_country_insert', 'insert', 'legal_entities', 'new.country'],
      [
        'legal_entities_review_country_update',
        'update of country',
        'legal_entities',
        'new.country',
      ],
      [
        'natural_persons_review_country_insert',
        'insert',
        'natural_persons',
        'upper(new.country_code)',
      ],
      [
        'natural_persons_review_country_update',
        'update of country_code',
        'natural_persons',
        'upper(new.country_code)',
      ],
    ] as const) {
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)} begin
        update entities set country = ${sql.raw(value)} where id = new.entity_id;
      end`.execute(db);
    }
  }
  // Soonest first, then id (the keyset), after one filter's value or none; every filter
  // column rides along, so any combination is counted and walked in an index alone.
  // Entities without a review date are not in the queue.
  const columns = ['kind', 'kyc_status', 'risk_level', 'country'];
  for (const leading of [undefined, ...columns]) {
    const keys = [
      ...(leading ? [leading] : []),
      'next_kyc_review',
      'id',
      ...columns.filter((column) => column !== leading),
    ];
    await sql`create index ${sql.raw(leading ? `entities_review_queue_${leading}` : 'entities_review_queue')} on entities (${sql.raw(keys.join(', '))}) where next_kyc_review is not null`.execute(
      db,
    );
  }
}
