import { type Kysely, sql } from 'kysely';
import { engineOf } from './helpers/0001-engine.ts';

/**
 * An empty assignee or country is stored as null, whoever writes: 0036's counts hold both as ''
 * while the filters' `is null` (one index range each) found only null, so totals and pages
 * disagreed. The API never writes ''; a row written straight into the database could.
 */
const NORMALISED = "assignee = nullif(assignee, ''), country = nullif(country, '')";

/** 0036's groups, where '' stands for a null country or assignee (copied as it is there). */
const GROUP = ['kind', 'kyc_status', 'risk_level', 'country', 'assignee'] as const;
const NULLABLE = new Set<string>(['country', 'assignee']);
const groupOf = (row: 'new.' | 'old.') =>
  GROUP.map((column) =>
    NULLABLE.has(column) ? `coalesce(${row}${column}, '')` : `${row}${column}`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql`create function entities_empty_as_null() returns trigger language plpgsql as $$
      begin
        new.assignee := nullif(new.assignee, '');
        new.country := nullif(new.country, '');
        return new;
      end $$`.execute(db);
    // Before the row is stored, so 0036's triggers and every index see null.
    await sql`create trigger entities_empty_as_null before insert or update of assignee, country on entities
      for each row when (new.assignee = '' or new.country = '') execute function entities_empty_as_null()`.execute(
      db,
    );
  } else {
    // SQLite's triggers cannot change the row being written, so it is updated again right after.
    // 0036's counter moved on that update too ('' to null), and lost its decrement when it ran
    // before the counter of the write itself: it now moves only when the group changes.
    const [newGroup, oldGroup] = [groupOf('new.'), groupOf('old.')];
    const changed = oldGroup.map((old, i) => `${old} is not ${newGroup[i] ?? ''}`).join(' or ');
    const add = `insert into entity_index_counts (${GROUP.join(', ')}, n) values (${newGroup.join(', ')}, 1)
      on conflict (${GROUP.join(', ')}) do update set n = n + 1`;
    const remove = `update entity_index_counts set n = n - 1 where (${GROUP.join(', ')}) = (${oldGroup.join(', ')})`;
    await sql`drop trigger entity_index_counts_update`.execute(db);
    await sql`create trigger entity_index_counts_update after update of ${sql.raw(GROUP.join(', '))} on entities
      when ${sql.raw(changed)} begin ${sql.raw(remove)}; ${sql.raw(add)}; end`.execute(db);
    for (const event of ['insert', 'update of assignee, country']) {
      await sql`create trigger ${sql.raw(`entities_empty_as_null_${event.split(' ')[0] ?? ''}`)}
        after ${sql.raw(event)} on entities when new.assignee = '' or new.country = '' begin
          update entities set ${sql.raw(NORMALISED)} where id = new.id;
        end`.execute(db);
    }
  }
  // The rows written so before: 0036 counted them in the null groups already, where they stay.
  await sql`update entities set ${sql.raw(NORMALISED)} where assignee = '' or country = ''`.execute(
    db,
  );
}
