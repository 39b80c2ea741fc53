import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/**
 * 0011's and 0029's copies of a legal entity's or person's country and name into `entities`,
 * now updated only when they differ: every writer stores them with the entity row, so a new
 * entity is written once, not three times (on PostgreSQL each time a new row version in each of
 * the 37 indexes of `entities`).
 */
const COPIES = [
  {
    trigger: 'legal_entities_review_country',
    table: 'legal_entities',
    column: 'country',
    value: "nullif(new.country, '')",
    update: 'country',
  },
  {
    trigger: 'natural_persons_review_country',
    table: 'natural_persons',
    column: 'country',
    value: "nullif(upper(new.country_code), '')",
    update: 'country_code',
  },
  {
    trigger: 'legal_entities_index_name',
    table: 'legal_entities',
    column: 'name_order',
    value: 'new.company_name_folded',
    update: 'company_name_folded',
  },
  {
    trigger: 'natural_persons_index_name',
    table: 'natural_persons',
    column: 'name_order',
    value: "new.last_name_folded || ' ' || new.first_name_folded",
    update: 'first_name_folded, last_name_folded',
  },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  for (const { trigger, table, column, value, update } of COPIES) {
    if (postgres) {
      // Looked up before any update: an update statement bumps 0007's change counter even when it
      // changes no row, and that one row updated per entity slowed a load quadratically. The
      // triggers stay as 0011 and 0029 made them; only what they run changes.
      await sql`create or replace function ${sql.raw(trigger)}() returns trigger language plpgsql as $$
        begin
          if exists (select from entities where id = new.entity_id and ${sql.raw(column)} is distinct from ${sql.raw(value)}) then
            update entities set ${sql.raw(column)} = ${sql.raw(value)} where id = new.entity_id;
          end if;
          return null;
        end $$`.execute(db);
      continue;
    }
    const copy = `update entities set ${column} = ${value} where id = new.entity_id and ${column} is not ${value}`;
    for (const event of ['insert', `update of ${update}`]) {
      const name = `${trigger}_${event.split(' ')[0] ?? ''}`;
      await sql`drop trigger ${sql.raw(name)}`.execute(db);
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)} begin
        ${sql.raw(copy)};
      end`.execute(db);
    }
  }
}
