import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/** The entity index's sort keys as index expressions; undated entities come last ascending. */
const SORTS = {
  name: 'name_order',
  created: 'created_at',
  nextReview: "coalesce(next_kyc_review, '9999-12-31')",
  status: 'kyc_status',
} as const;

/** The entity index's filter columns. */
const FILTERS = ['kind', 'kyc_status', 'risk_level', 'country', 'assignee'] as const;

/** Indexes on main already serving a sort alone or after a filter: (created_at, id), (kind, created_at, id). */
const ALREADY_INDEXED = new Set(['created', 'created kind']);

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  // The name the index sorts by, folded as search folds it (a person by last name, then first),
  // in one column of entities so that one index walks both kinds; byte order on both engines.
  await sql`alter table entities add column name_order text ${sql.raw(postgres ? 'collate "C" ' : '')}not null default ''`.execute(
    db,
  );
  await sql`update entities set name_order = coalesce(
      (select company_name_folded from legal_entities where legal_entities.entity_id = entities.id),
      (select last_name_folded || ' ' || first_name_folded from natural_persons where natural_persons.entity_id = entities.id),
      '')`.execute(db);
  // Every writer stores the folded names with the row (and the start-up rebuild updates them): copied here.
  const copies = [
    ['legal_entities', 'company_name_folded', 'new.company_name_folded'],
    [
      'natural_persons',
      'first_name_folded, last_name_folded',
      "new.last_name_folded || ' ' || new.first_name_folded",
    ],
  ] as const;
  for (const [table, columns, value] of copies) {
    if (postgres) {
      await sql`create function ${sql.raw(`${table}_index_name`)}() returns trigger language plpgsql as $$
        begin
          update entities set name_order = ${sql.raw(value)} where id = new.entity_id;
          return null;
        end $$`.execute(db);
      await sql`create trigger ${sql.raw(`${table}_index_name`)} after insert or update of ${sql.raw(columns)} on ${sql.table(table)}
        for each row execute function ${sql.raw(`${table}_index_name`)}()`.execute(db);
    } else {
      for (const event of ['insert', `update of ${columns}`]) {
        await sql`create trigger ${sql.raw(`${table}_index_name_${event.split(' ')[0] ?? ''}`)} after ${sql.raw(event)} on ${sql.table(table)} begin
          update entities set name_order = ${sql.raw(value)} where id = new.entity_id;
        end`.execute(db);
      }
    }
  }
  // Each sort alone and after each filter's value: a page is the first rows of one range, and a
  // filter's total a range count. A status filter sorted by status is the status index itself.
  for (const [sort, key] of Object.entries(SORTS)) {
    for (const filter of [undefined, ...FILTERS]) {
      if (ALREADY_INDEXED.has(filter ? `${sort} ${filter}` : sort)) continue;
      if (filter === 'kyc_status' && sort === 'status') continue;
      const name = filter ? `entities_index_${sort}_${filter}` : `entities_index_${sort}`;
      const columns = [...(filter ? [filter] : []), key, 'id'].join(', ');
      await sql`create index ${sql.raw(name)} on entities (${sql.raw(columns)})`.execute(db);
    }
  }
}
