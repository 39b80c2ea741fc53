import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres-server.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The PostgreSQL server this run's test files create their databases on. */
    postgresServerUrl: string;
  }
}

/**
 * One PostgreSQL server per test run: `DATABASE_URL` when given (its role must be allowed to
 * create databases), otherwise a throwaway server from Debian's binaries in a temporary directory.
 */
export default async function setup(project: TestProject) {
  const given = process.env.DATABASE_URL;
  if (given !== undefined && given !== '') {
    project.provide('postgresServerUrl', given);
    return undefined;
  }
  const server = await startThrowawayPostgres();
  project.provide('postgresServerUrl', server.url);
  return () => server.stop();
}
