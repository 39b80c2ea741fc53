import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/** The entity index's filter columns; '' stands for null so that one unique key holds on both engines. */
const GROUP = ['kind', 'kyc_status', 'risk_level', 'country', 'assignee'] as const;
const NULLABLE = new Set<string>(['country', 'assignee']);

const groupOf = (row: 'new.' | 'old.' | '') =>
  GROUP.map((column) =>
    NULLABLE.has(column) ? `coalesce(${row}${column}, '')` : `${row}${column}`,
  ).join(', ');

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  // The index's totals as a sum over at most a few thousand groups, not a count over a million rows.
  for (const table of ['entity_index_counts', 'entity_index_count_deltas']) {
    await sql`create table ${sql.table(table)} (
        kind text not null,
        kyc_status text not null,
        risk_level text not null,
        country text not null,
        assignee text not null,
        n ${sql.raw(postgres ? 'bigint' : 'integer')} not null
        ${sql.raw(table === 'entity_index_counts' ? ', primary key (kind, kyc_status, risk_level, country, assignee)' : '')}
      )`.execute(db);
  }
  await sql`insert into entity_index_counts (kind, kyc_status, risk_level, country, assignee, n)
      select ${sql.raw(groupOf(''))}, count(*) from entities group by ${sql.raw(groupOf(''))}`.execute(
    db,
  );
  const changed = GROUP.map((column) =>
    postgres
      ? `old.${column} is distinct from new.${column}`
      : `old.${column} is not new.${column}`,
  ).join(' or ');

  if (postgres) {
    // Appended, never updated here: a counter row updated per entity would serialise writers,
    // deadlock two opposite moves, and slow a bulk load quadratically. The server folds them in.
    const delta = (row: 'new.' | 'old.', n: number) =>
      `insert into entity_index_count_deltas (kind, kyc_status, risk_level, country, assignee, n) values (${groupOf(row)}, ${String(n)})`;
    await sql`create function entity_index_count_deltas_follow() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${sql.raw(delta('old.', -1))}; end if;
        if tg_op in ('UPDATE', 'INSERT') then ${sql.raw(delta('new.', 1))}; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger entity_index_count_deltas_write after insert or delete on entities
      for each row execute function entity_index_count_deltas_follow()`.execute(db);
    await sql`create trigger entity_index_count_deltas_update after update of ${sql.raw(GROUP.join(', '))} on entities
      for each row when (${sql.raw(changed)}) execute function entity_index_count_deltas_follow()`.execute(
      db,
    );
    return;
  }
  // SQLite serialises writers and updates in place: the counters follow each row directly.
  const add = `insert into entity_index_counts (kind, kyc_status, risk_level, country, assignee, n)
      values (${groupOf('new.')}, 1)
      on conflict (kind, kyc_status, risk_level, country, assignee) do update set n = n + 1`;
  const remove = `update entity_index_counts set n = n - 1 where (${GROUP.join(', ')}) = (${groupOf('old.')})`;
  await sql`create trigger entity_index_counts_insert after insert on entities begin ${sql.raw(add)}; end`.execute(
    db,
  );
  await sql`create trigger entity_index_counts_delete after delete on entities begin ${sql.raw(remove)}; end`.execute(
    db,
  );
  await sql`create trigger entity_index_counts_update after update of ${sql.raw(GROUP.join(', '))} on entities
      when ${sql.raw(changed)} begin ${sql.raw(remove)}; ${sql.raw(add)}; end`.execute(db);
}
