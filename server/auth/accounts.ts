import type { Role } from '../../contract/audit.ts';
import type { Db } from '../db/database.ts';
import { accountsRepository, type NewAccount } from './accounts-repository.ts';
import { generateApiKey, generatePassword, hashApiKey, hashPassword } from './secrets.ts';

type AccountOptions = { displayName?: string; password?: string; role?: Role };

/**
 * The stored form of a new account and its secrets, before anything is written: a caller that
 * holds a write lock can hash first and keep the lock only for the insert.
 */
export async function prepareAccount(username: string, options: AccountOptions = {}) {
  const password = options.password ?? generatePassword();
  const apiKey = generateApiKey();
  const record: NewAccount = {
    username,
    displayName: options.displayName ?? username,
    passwordHash: await hashPassword(password),
    apiKeyHash: hashApiKey(apiKey),
    createdAt: new Date().toISOString(),
    role: options.role ?? 'reviewer',
  };
  return { record, username, password, apiKey };
}

/** Creates an account; the password and API key are returned once and stored only as hashes. */
export async function createAccount(db: Db, username: string, options: AccountOptions = {}) {
  const { record, ...account } = await prepareAccount(username, options);
  await accountsRepository(db).insert(record);
  return account;
}
