import { type Compilable, CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Db } from './database.ts';
import { engineOf, type Engine } from './engine.ts';

/** The text of each statement marked by `prepared`, and its name on every PostgreSQL connection. */
const preparedNames = new Map<string, string>();

/**
 * Marks `query` to run on PostgreSQL as a named prepared statement, parsed once a connection and
 * planned again only while PostgreSQL finds a custom plan better than its generic one. For
 * statements run on most requests whose best plan does not depend on their parameters (a lookup by
 * a key, an audit append, a walk of one index in its order), where parsing and planning cost more
 * than running. Not for searches or filtered pages: a plan kept for one fragment or filter can be
 * wrong for the next.
 */
export function prepared<Query extends Pick<CompiledQuery, 'sql'>>(query: Query): Query {
  if (!preparedNames.has(query.sql)) {
    preparedNames.set(query.sql, `kyc_${String(preparedNames.size + 1)}`);
  }
  return query;
}

/** The first row of a compiled query, or undefined. */
export async function firstRowOf<Row>(db: Db, query: CompiledQuery<Row>): Promise<Row | undefined> {
  const { rows } = await db.executeQuery(query);
  return rows[0];
}

/** The first row of `query`, run as a prepared statement (see `prepared`). */
export function takeFirstPrepared<Row>(db: Db, query: Compilable<Row>): Promise<Row | undefined> {
  return firstRowOf(db, prepared(query.compile()));
}

/**
 * A prepared query built and compiled once per engine, then run with each call's arguments in its
 * parameters: for the caller's lookups, whose building cost 2.5–8 µs of every request. `build`
 * must make the same SQL whatever its arguments (each becomes a parameter, no branch on one).
 */
export function compiledOnce<Args extends unknown[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => CompiledQuery<Row> {
  // Each parameter either comes from an argument (its index) or is the builder's own constant.
  const kept = new Map<
    Engine,
    { sql: string; sources: ({ argument: number } | { value: unknown })[] }
  >();
  return (db, ...args) => {
    const engine = engineOf(db);
    let shape = kept.get(engine);
    if (!shape) {
      const markers = args.map((_, argument) => ({ argument }));
      const compiled = prepared(build(db, ...(markers as Args)).compile());
      const sources = compiled.parameters.map((parameter) =>
        markers.includes(parameter as { argument: number })
          ? (parameter as { argument: number })
          : { value: parameter },
      );
      shape = { sql: compiled.sql, sources };
      kept.set(engine, shape);
    }
    const parameters = shape.sources.map((source) =>
      'argument' in source ? args[source.argument] : source.value,
    );
    return CompiledQuery.raw(shape.sql, parameters);
  };
}

/** "cached plan must not change result type": a column was added under a prepared `select *`. */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * Makes `client` run the statements marked by `prepared` by name; every other query goes on as
 * before. A statement whose result type a migration changed is prepared again under a new name.
 */
export function runPreparedStatements(client: pg.ClientBase): void {
  const query = client.query.bind(client);
  const send = (...args: unknown[]): unknown => Reflect.apply(query, undefined, args);
  // This connection's new names for statements whose result type changed under their old ones.
  const renamed = new Map<string, string>();
  let renames = 0;
  const withPreparedStatements = (...args: unknown[]): unknown => {
    const [text, values] = args;
    const name =
      typeof text === 'string' && args.length === 2 && Array.isArray(values)
        ? (renamed.get(text) ?? preparedNames.get(text))
        : undefined;
    if (name === undefined) return send(...args);
    const run = (as: string) => send({ name: as, text, values }) as Promise<unknown>;
    // Outside a transaction block the failed statement was its own transaction: nothing ran, nothing is aborted.
    const retryable = client.getTransactionStatus() === 'I';
    return run(name).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== RESULT_TYPE_CHANGED) throw error;
      renames += 1;
      const fresh = `${name}_${String(renames)}`;
      renamed.set(text as string, fresh);
      if (!retryable) throw error;
      return run(fresh);
    });
  };
  Object.assign(client, { query: withPreparedStatements });
}
