import type { Role } from '../../src/contract/audit.ts';
import type { Db } from '../db/database.ts';
import { accountsRepository } from './accounts-repository.ts';
import { generateApiKey, generatePassword, hashApiKey, hashPassword } from './secrets.ts';

/** Creates an account; the password and API key are returned once and stored only as hashes. */
export async function createAccount(
  db: Db,
  username: string,
  options: { displayName?: string; password?: string; role?: Role } = {},
) {
  const password = options.password ?? generatePassword();
  const apiKey = generateApiKey();
  await accountsRepository(db).insert({
    username,
    displayName: options.displayName ?? username,
    passwordHash: await hashPassword(password),
    apiKeyHash: hashApiKey(apiKey),
    createdAt: new Date().toISOString(),
    role: options.role ?? 'reviewer',
  });
  return { username, password, apiKey };
}
