import type { Db } from '../db/database.ts';

/** The only place with SQL for assignments: who works on an entity, and who may. */
export function assignmentRepository(db: Db) {
  return {
    /** The entity's assignee (null: nobody), or undefined when no entity has this id. */
    async assigneeOf(entityId: string): Promise<{ assignee: string | null } | undefined> {
      return db
        .selectFrom('entities')
        .select('assignee')
        .where('id', '=', entityId)
        .executeTakeFirst();
    },

    /**
     * The username as stored of the enabled reviewer account that `username` names (compared
     * ignoring case, as sign-in does), or undefined.
     */
    async reviewerNamed(username: string): Promise<string | undefined> {
      const account = await db
        .selectFrom('accounts')
        .select('username')
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
        .where('role', '=', 'reviewer')
        .where('disabled', '=', 0)
        .executeTakeFirst();
      return account?.username;
    },

    /** Every enabled reviewer account, the ones that can be assigned, by display name. */
    async reviewers(): Promise<{ username: string; name: string }[]> {
      return db
        .selectFrom('accounts')
        .select(['username', 'display_name as name'])
        .where('role', '=', 'reviewer')
        .where('disabled', '=', 0)
        .orderBy('display_name')
        .orderBy('username')
        .execute();
    },

    async assign(entityId: string, username: string | null): Promise<void> {
      await db
        .updateTable('entities')
        .set({ assignee: username })
        .where('id', '=', entityId)
        .execute();
    },
  };
}
