import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely';
import { databaseFaultOf, type DatabaseObserver } from './database-faults.ts';

/** Statements that change the database when they succeed outside a transaction. */
const WRITING_STATEMENT =
  /^\s*(insert|update|delete|replace|create|drop|alter|with\b[\s\S]*\b(insert|update|delete)\b)/i;

function observeConnection(connection: DatabaseConnection, observer: DatabaseObserver): void {
  const execute = connection.executeQuery.bind(connection);
  let inTransaction = false;
  connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    const text = query.sql.trimStart().slice(0, 20).toLowerCase();
    try {
      const result = await execute<R>(query);
      if (text.startsWith('begin') || text.startsWith('start transaction')) {
        inTransaction = true;
        observer.succeeded(false);
      } else if (text.startsWith('commit')) {
        inTransaction = false;
        observer.succeeded(true);
      } else if (text.startsWith('rollback')) {
        inTransaction = false;
        observer.succeeded(false);
      } else {
        observer.succeeded(!inTransaction && WRITING_STATEMENT.test(query.sql));
      }
      return result;
    } catch (error) {
      if (text.startsWith('commit') || text.startsWith('rollback')) inTransaction = false;
      const fault = databaseFaultOf(error);
      if (fault) observer.failed(fault, error);
      throw error;
    }
  };
}

/**
 * Tells `observer` of every query's outcome on the connections `driver` hands out, and of
 * connections it cannot get (a pool that cannot connect), so the server's health follows what
 * requests actually meet. `rollback` replaces the driver's own (see its callers).
 */
export function observeDriver(
  driver: Driver,
  observer: DatabaseObserver,
  rollback?: (connection: DatabaseConnection) => Promise<void>,
): Driver {
  const observed = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async (options) => {
    let connection: DatabaseConnection;
    try {
      connection = await acquire(options);
    } catch (error) {
      const fault = databaseFaultOf(error);
      if (fault) observer.failed(fault, error);
      throw error;
    }
    if (!observed.has(connection)) {
      observed.add(connection);
      observeConnection(connection, observer);
    }
    return connection;
  };
  if (rollback) driver.rollbackTransaction = rollback;
  return driver;
}
