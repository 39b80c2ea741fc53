import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/database.ts';
import { createTestDatabase, dropTestDatabase, startThrowawayPostgres } from './postgres-server.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The PostgreSQL server this run's test files create their databases on. */
    postgresServerUrl: string;
    /** A database on it migrated to the newest schema, copied for each test server (harness.ts). */
    postgresMigratedTemplate: string;
  }
}

/**
 * One PostgreSQL server per test run: `DATABASE_URL` when given (its role must be allowed to
 * create databases), otherwise a throwaway server from Debian's binaries in a temporary directory.
 * On it, one database migrated as a server's start migrates it: a test server starts on a copy of
 * it (`CREATE DATABASE … TEMPLATE`, a fraction of a second) instead of running every migration.
 */
export default async function setup(project: TestProject) {
  const given = process.env.DATABASE_URL ?? '';
  const server = given === '' ? await startThrowawayPostgres() : undefined;
  const serverUrl = server?.url ?? given;
  const templateUrl = await createTestDatabase(serverUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-pg-template-'));
  try {
    const { db } = await openDatabase(dataDir, templateUrl);
    await db.destroy();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  project.provide('postgresServerUrl', serverUrl);
  project.provide('postgresMigratedTemplate', new URL(templateUrl).pathname.slice(1));
  return async () => {
    await dropTestDatabase(templateUrl);
    await server?.stop();
  };
}
