import { type Kysely, sql } from 'kysely';

/** SQLite: drops an FTS index and the triggers that keep it, `index`_insert, _delete and _update. */
export async function dropIndexAndTriggers(db: Kysely<unknown>, index: string): Promise<void> {
  for (const event of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`${index}_${event}`)}`.execute(db);
  }
  await sql`drop table ${sql.raw(index)}`.execute(db);
}

/**
 * SQLite (0016, 0017): drops a table's trigram index over its rowid and its triggers, and creates
 * `copy` (the folded name columns numbered by `position`), `copy`_late (positions of names
 * inserted after a later one in list order) and `copy`_fts (the trigram index over `position`),
 * kept by triggers on `table`. The copy starts empty: the start-up step numbers the rows.
 */
export async function replaceNameIndexWithListOrderCopy(
  db: Kysely<unknown>,
  names: { table: string; oldIndex: string; copy: string; columns: readonly string[] },
): Promise<void> {
  const { table, oldIndex, copy } = names;
  const late = `${copy}_late`;
  const index = `${copy}_fts`;
  const columns = names.columns.join(', ');
  const newValues = names.columns.map((column) => `new.${column}`).join(', ');
  const setNew = names.columns.map((column) => `${column} = new.${column}`).join(', ');
  await dropIndexAndTriggers(db, oldIndex);
  await sql`create table ${sql.raw(copy)} (
    position integer primary key,
    entity_id text not null unique,
    created_at text not null,
    ${sql.raw(names.columns.map((column) => `${column} text not null`).join(',\n    '))}
  )`.execute(db);
  await sql`create table ${sql.raw(late)} (position integer primary key)`.execute(db);
  await sql`create virtual table ${sql.raw(index)} using fts5(${sql.raw(columns)}, content='${sql.raw(copy)}', content_rowid='position', tokenize='trigram case_sensitive 1')`.execute(
    db,
  );
  // The table's created_at is filled by another insert trigger (0004, 0006); the entity has it.
  await sql
    .raw(
      `create trigger ${copy}_insert after insert on ${table} begin
    insert into ${copy} (entity_id, created_at, ${columns})
      values (new.entity_id, (select created_at from entities where id = new.entity_id), ${newValues});
    insert into ${index} (rowid, ${columns})
      select position, ${columns} from ${copy} where entity_id = new.entity_id;
    insert into ${late} (position)
      select name.position from ${copy} name where name.entity_id = new.entity_id
        and exists (select 1 from ${table} later where (later.created_at, later.entity_id) > (name.created_at, name.entity_id));
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${copy}_delete after delete on ${table} begin
    insert into ${index} (${index}, rowid, ${columns})
      select 'delete', position, ${columns} from ${copy} where entity_id = old.entity_id;
    delete from ${late}
      where position = (select position from ${copy} where entity_id = old.entity_id);
    delete from ${copy} where entity_id = old.entity_id;
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${copy}_update after update of ${columns} on ${table} begin
    insert into ${index} (${index}, rowid, ${columns})
      select 'delete', position, ${columns} from ${copy} where entity_id = old.entity_id;
    update ${copy} set ${setNew} where entity_id = new.entity_id;
    insert into ${index} (rowid, ${columns})
      select position, ${columns} from ${copy} where entity_id = new.entity_id;
  end`,
    )
    .execute(db);
}
