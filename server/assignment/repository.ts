import type { Db } from '../db/database.ts';

/**
 * Where assignments live: `entities` (embedded mode, the entity's own column) or `gateway` (the
 * gateway's `gateway_assignments`, as its notes are kept; the entities live upstream).
 */
export type AssignmentStore = 'entities' | 'gateway';

/** The only place with SQL for assignments: who works on an entity, and who may. */
export function assignmentRepository(db: Db, store: AssignmentStore = 'entities') {
  return store === 'gateway' ? gatewayAssignments(db) : embeddedAssignments(db);
}

function embeddedAssignments(db: Db) {
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

function gatewayAssignments(db: Db) {
  /** Who has signed in through the gateway and is not made an auditor by the operator. */
  const assignable = () =>
    db
      .selectFrom('gateway_reviewers')
      .leftJoin('gateway_roles', 'gateway_roles.username', 'gateway_reviewers.username_folded')
      .where((eb) =>
        eb.or([eb('gateway_roles.role', 'is', null), eb('gateway_roles.role', '=', 'reviewer')]),
      );
  return {
    /** The entity's assignee here (null: nobody); whether the entity exists is the upstream's. */
    async assigneeOf(entityId: string): Promise<{ assignee: string | null }> {
      const row = await db
        .selectFrom('gateway_assignments')
        .select('assignee')
        .where('entity_id', '=', entityId)
        .executeTakeFirst();
      return { assignee: row?.assignee ?? null };
    },

    /** The username as last signed in of the reviewer `username` names (ignoring case), or undefined. */
    async reviewerNamed(username: string): Promise<string | undefined> {
      const reviewer = await assignable()
        .select('gateway_reviewers.username')
        .where('gateway_reviewers.username_folded', '=', username.toLowerCase())
        .executeTakeFirst();
      return reviewer?.username;
    },

    /** Every reviewer who has signed in here; the gateway knows no display names. */
    async reviewers(): Promise<{ username: string; name: string }[]> {
      return assignable()
        .select(['gateway_reviewers.username', 'gateway_reviewers.username as name'])
        .orderBy('gateway_reviewers.username_folded')
        .execute();
    },

    async assign(entityId: string, username: string | null, at = new Date()): Promise<void> {
      if (username === null) {
        await db.deleteFrom('gateway_assignments').where('entity_id', '=', entityId).execute();
        return;
      }
      const assignedAt = at.toISOString();
      await db
        .insertInto('gateway_assignments')
        .values({ entity_id: entityId, assignee: username, assigned_at: assignedAt })
        .onConflict((conflict) =>
          conflict.column('entity_id').doUpdateSet({ assignee: username, assigned_at: assignedAt }),
        )
        .execute();
    },
  };
}
