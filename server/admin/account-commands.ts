import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import { generateApiKey, generatePassword, hashApiKey, hashPassword } from '../auth/secrets.ts';
import { ROLES, roleSchema, type Role } from '../../contract/audit.ts';
import type { Db } from '../db/database.ts';
import { reviewersRepository } from '../gateway/reviewers-repository.ts';
import { isUniqueViolation } from '../db/engine.ts';

/** A mistake by the operator: the CLI prints the message as it is and exits 1. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

/** Letters, digits and `. _ - @`: no spaces, which sign-in trims away. */
const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,100}$/;

export interface AccountSummary {
  username: string;
  displayName: string;
  role: Role;
  disabled: boolean;
  createdAt: string;
}

export async function createAccountCommand(
  db: Db,
  username: string,
  displayName?: string,
  role: Role = 'reviewer',
): Promise<{ username: string; role: Role; password: string; apiKey: string }> {
  if (!USERNAME_PATTERN.test(username)) {
    throw new AdminError(
      `"${username}" is not a valid username: use 1 to 100 letters, digits, dots, dashes, underscores or @.`,
    );
  }
  const name = displayName?.trim();
  if (displayName !== undefined && (!name || name.length > 200 || /\p{Cc}/u.test(name))) {
    throw new AdminError('The display name must be 1 to 200 characters on one line.');
  }
  if (await accountsRepository(db).findByUsername(username)) {
    throw new AdminError(`An account with the username "${username}" already exists.`);
  }
  try {
    return {
      ...(await createAccount(db, username, { role, ...(name ? { displayName: name } : {}) })),
      role,
    };
  } catch (error) {
    // Another process created the same username between the check and the insert.
    if (isUniqueViolation(error)) {
      throw new AdminError(`An account with the username "${username}" already exists.`);
    }
    throw error;
  }
}

/** A new password; every token issued before it stops working. */
export async function resetPasswordCommand(
  db: Db,
  username: string,
): Promise<{ username: string; password: string }> {
  const account = await existingAccount(db, username);
  const password = generatePassword();
  await accountsRepository(db).setPassword(account.id, await hashPassword(password));
  return { username: account.username, password };
}

/** A new API key; the old one stops working at once. */
export async function resetApiKeyCommand(
  db: Db,
  username: string,
): Promise<{ username: string; apiKey: string }> {
  const account = await existingAccount(db, username);
  const apiKey = generateApiKey();
  await accountsRepository(db).setApiKeyHash(account.id, hashApiKey(apiKey));
  return { username: account.username, apiKey };
}

/** Disables the account: sign-in, its tokens and its API key stop working. */
export async function disableAccountCommand(
  db: Db,
  username: string,
): Promise<{ username: string; disabled: true }> {
  const account = await existingAccount(db, username);
  await accountsRepository(db).disable(account.id);
  return { username: account.username, disabled: true };
}

/**
 * Ends every session of an account: its tokens stop working at once, its password and API key
 * stay. In gateway mode the gateway refuses the tokens it bound to that name.
 */
export async function revokeSessionsCommand(
  db: Db,
  username: string,
  gateway: boolean,
  nowMs: number,
): Promise<{ username: string; revokedSessions: number }> {
  if (gateway) {
    if (!USERNAME_PATTERN.test(username)) {
      throw new AdminError(`"${username}" is not a valid username.`);
    }
    const revoked = await reviewersRepository(db).revokeAllOf(username, nowMs);
    return { username, revokedSessions: revoked.length };
  }
  const account = await existingAccount(db, username);
  return {
    username: account.username,
    revokedSessions: await accountsRepository(db).deleteSessionsOf(account.id),
  };
}

export async function listAccountsCommand(db: Db): Promise<{ accounts: AccountSummary[] }> {
  const rows = await accountsRepository(db).list();
  return {
    accounts: rows.map((row) => ({
      username: row.username,
      displayName: row.display_name,
      role: row.role,
      disabled: row.disabled !== 0,
      createdAt: row.created_at,
    })),
  };
}

/** The operator's word for a role, checked: `reviewer` or `auditor`. */
export function roleOf(text: string | undefined): Role {
  const parsed = roleSchema.safeParse(text ?? 'reviewer');
  if (!parsed.success) {
    throw new AdminError(`"${text ?? ''}" is not a role: use ${ROLES.join(' or ')}.`);
  }
  return parsed.data;
}

/**
 * Gives an account a role. In gateway mode the reviewers' accounts live at the identity service,
 * so the role is kept by username in the gateway's own database.
 */
export async function setRoleCommand(
  db: Db,
  username: string,
  role: Role,
  gateway: boolean,
): Promise<{ username: string; role: Role }> {
  if (gateway) {
    if (!USERNAME_PATTERN.test(username)) {
      throw new AdminError(`"${username}" is not a valid username.`);
    }
    await reviewersRepository(db).setRole(username, role);
    return { username, role };
  }
  const account = await existingAccount(db, username);
  await accountsRepository(db).setRole(account.id, role);
  return { username: account.username, role };
}

async function existingAccount(db: Db, username: string) {
  const account = await accountsRepository(db).findByUsername(username);
  if (!account) throw new AdminError(`There is no account with the username "${username}".`);
  return account;
}
