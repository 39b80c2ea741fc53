import crypto from 'node:crypto';
import type { Role } from '../../contract/audit.ts';
import { entityDataVersionExpression } from '../db/change-counter.ts';
import type { Db } from '../db/database.ts';
import { compiledOnce, firstRowOf } from '../db/prepared-statements.ts';
import type { AccountRow } from '../db/schema.ts';

export interface NewAccount {
  username: string;
  displayName: string;
  passwordHash: string;
  apiKeyHash: string;
  createdAt: string;
  role?: Role;
}

/** The account of an API key, with the entity data's version at this moment. */
const accountByApiKeyHash = compiledOnce((db: Db, apiKeyHash: string) =>
  db
    .selectFrom('accounts')
    .selectAll()
    .select(entityDataVersionExpression.as('entity_data_version'))
    .where('api_key_hash', '=', apiKeyHash),
);

/** The enabled account of a live session, with its expiry and the entity data's version. */
const liveSessionAccount = compiledOnce((db: Db, jti: string, nowSeconds: number) =>
  db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .selectAll('accounts')
    .select('sessions.expires_at as session_expires_at')
    .select(entityDataVersionExpression.as('entity_data_version'))
    .where('sessions.jti', '=', jti)
    .where('sessions.expires_at', '>', nowSeconds)
    .where('accounts.disabled', '=', 0),
);

/** The only place with SQL for accounts and their sessions (issued JWTs). */
export function accountsRepository(db: Db) {
  return {
    async insert(account: NewAccount) {
      const id = crypto.randomUUID();
      await db
        .insertInto('accounts')
        .values({
          id,
          username: account.username,
          display_name: account.displayName,
          password_hash: account.passwordHash,
          api_key_hash: account.apiKeyHash,
          disabled: 0,
          created_at: account.createdAt,
          role: account.role ?? 'reviewer',
        })
        .execute();
      return id;
    },

    findByUsername(username: string): Promise<AccountRow | undefined> {
      return db
        .selectFrom('accounts')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
        .executeTakeFirst();
    },

    findById(id: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * With the entity data's version at this moment, which a request would otherwise read apart;
     * prepared, as every request with a key runs it.
     */
    findByApiKeyHash(
      apiKeyHash: string,
    ): Promise<(AccountRow & { entity_data_version: number | string }) | undefined> {
      return firstRowOf(db, accountByApiKeyHash(db, apiKeyHash));
    },

    list(): Promise<AccountRow[]> {
      return db.selectFrom('accounts').selectAll().orderBy('username').execute();
    },

    /** Display names of the accounts among `usernames`; one that no longer exists (or lives upstream) is absent. */
    async displayNames(usernames: readonly string[]): Promise<Map<string, string>> {
      const wanted = [...new Set(usernames)];
      if (wanted.length === 0) return new Map();
      const rows = await db
        .selectFrom('accounts')
        .select(['username', 'display_name'])
        .where('username', 'in', wanted)
        .execute();
      return new Map(rows.map((row) => [row.username, row.display_name]));
    },

    async setRole(id: string, role: Role) {
      await db.updateTable('accounts').set({ role }).where('id', '=', id).execute();
    },

    /** New password; every token issued before stops working. */
    async setPassword(id: string, passwordHash: string) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ password_hash: passwordHash })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('sessions').where('account_id', '=', id).execute();
      });
    },

    async setApiKeyHash(id: string, apiKeyHash: string) {
      await db
        .updateTable('accounts')
        .set({ api_key_hash: apiKeyHash })
        .where('id', '=', id)
        .execute();
    },

    /** Disables the account and revokes its tokens; its API key stops working with it. */
    async disable(id: string) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ disabled: 1 }).where('id', '=', id).execute();
        await trx.deleteFrom('sessions').where('account_id', '=', id).execute();
      });
    },

    /** `nowSeconds` comes from the service clock, the one that set `expiresAt`. */
    async insertSession(session: {
      jti: string;
      accountId: string;
      expiresAt: number;
      nowSeconds: number;
    }) {
      await db.transaction().execute(async (trx) => {
        // Expired rows are dead weight; clearing them here keeps the table small without a timer.
        await trx
          .deleteFrom('sessions')
          .where('expires_at', '<', session.nowSeconds - 3600)
          .execute();
        await trx
          .insertInto('sessions')
          .values({
            jti: session.jti,
            account_id: session.accountId,
            expires_at: session.expiresAt,
          })
          .execute();
      });
    },

    /** Ends one session (sign-out): its token is refused from the next request on, everywhere. */
    async deleteSession(jti: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('jti', '=', jti).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Ends every session of an account ("sign out everywhere", account:revoke-sessions). */
    async deleteSessionsOf(accountId: string): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * The account behind a live session (stored expiry after `nowSeconds`) with that expiry, if
     * both still exist and the account is enabled, and the entity data's version at this moment;
     * prepared, as every request with a token runs it.
     */
    findLiveSessionAccount(
      jti: string,
      nowSeconds: number,
    ): Promise<
      | (AccountRow & { session_expires_at: number; entity_data_version: number | string })
      | undefined
    > {
      return firstRowOf(db, liveSessionAccount(db, jti, nowSeconds));
    },
  };
}

export type AccountsRepository = ReturnType<typeof accountsRepository>;
