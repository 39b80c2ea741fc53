import type { Role } from '../../contract/audit.ts';
import type { Db } from '../db/database.ts';

/**
 * The only place with SQL for the gateway's reviewers: who signed in for which token (by its
 * SHA-256, never the token) and the roles the operator gave them.
 */
export function reviewersRepository(db: Db) {
  return {
    async bindToken(tokenHash: string, username: string, expiresAtMs: number, nowMs: number) {
      await db.transaction().execute(async (trx) => {
        // Lapsed bindings go as new ones arrive, so the table holds live sessions only.
        await trx.deleteFrom('gateway_sessions').where('expires_at', '<=', nowMs).execute();
        await trx
          .insertInto('gateway_sessions')
          .values({ token_hash: tokenHash, username, expires_at: expiresAtMs })
          .onConflict((conflict) =>
            conflict.column('token_hash').doUpdateSet({ username, expires_at: expiresAtMs }),
          )
          .execute();
        // Whoever has signed in here can be assigned entities (server/assignment, gateway store).
        const lastSignIn = new Date(nowMs).toISOString();
        await trx
          .insertInto('gateway_reviewers')
          .values({ username_folded: username.toLowerCase(), username, last_sign_in: lastSignIn })
          .onConflict((conflict) =>
            conflict.column('username_folded').doUpdateSet({ username, last_sign_in: lastSignIn }),
          )
          .execute();
      });
    },

    async reviewerOf(tokenHash: string, nowMs: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('gateway_sessions')
        .select('username')
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', nowMs)
        .executeTakeFirst();
      return row?.username;
    },

    /** Signs one token out: its binding goes, and it is refused here until it expires. */
    async revokeToken(tokenHash: string, expiresAtMs: number, nowMs: number) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('gateway_revoked_tokens').where('expires_at', '<=', nowMs).execute();
        await trx.deleteFrom('gateway_sessions').where('token_hash', '=', tokenHash).execute();
        await trx
          .insertInto('gateway_revoked_tokens')
          .values({ token_hash: tokenHash, expires_at: expiresAtMs })
          .onConflict((conflict) => conflict.column('token_hash').doNothing())
          .execute();
      });
    },

    /** Signs a reviewer out of every token bound to them; the live ones' hashes. */
    async revokeAllOf(username: string, nowMs: number): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        const bound = await trx
          .selectFrom('gateway_sessions')
          .select(['token_hash', 'expires_at'])
          .where('username', '=', username)
          .where('expires_at', '>', nowMs)
          .execute();
        await trx.deleteFrom('gateway_sessions').where('username', '=', username).execute();
        if (bound.length > 0) {
          await trx
            .insertInto('gateway_revoked_tokens')
            .values(bound)
            .onConflict((conflict) => conflict.column('token_hash').doNothing())
            .execute();
        }
        return bound.map((row) => row.token_hash);
      });
    },

    async isRevoked(tokenHash: string, nowMs: number): Promise<boolean> {
      const row = await db
        .selectFrom('gateway_revoked_tokens')
        .select('token_hash')
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', nowMs)
        .executeTakeFirst();
      return row !== undefined;
    },

    async roleOf(username: string): Promise<Role> {
      const row = await db
        .selectFrom('gateway_roles')
        .select('role')
        .where('username', '=', username.toLowerCase())
        .executeTakeFirst();
      return row?.role ?? 'reviewer';
    },

    async setRole(username: string, role: Role) {
      await db
        .insertInto('gateway_roles')
        .values({ username: username.toLowerCase(), role })
        .onConflict((conflict) => conflict.column('username').doUpdateSet({ role }))
        .execute();
    },
  };
}
