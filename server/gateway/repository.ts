import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { isForeignKeyViolation } from '../db/engine.ts';
import type { ClientUpdateConfigTable, RelayedClientUpdateTable } from '../db/schema.ts';

export type ClientUpdateConfigRow = Selectable<ClientUpdateConfigTable>;
export type RelayedClientUpdateRow = Selectable<RelayedClientUpdateTable>;

/** The only place with SQL for the gateway's own records: e-mail configurations, relayed requests. */
export function gatewayRecordsRepository(db: Db) {
  return {
    listConfigs(): Promise<ClientUpdateConfigRow[]> {
      return db.selectFrom('client_update_configs').selectAll().orderBy('config_id').execute();
    },

    /** Inserts the configuration, or replaces the one with its configId; true when it is new. */
    async saveConfig(row: ClientUpdateConfigRow): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('client_update_configs')
          .set({
            name: row.name,
            description: row.description,
            default_subject: row.default_subject,
            default_message: row.default_message,
          })
          .where('config_id', '=', row.config_id)
          .executeTakeFirst();
        if (updated.numUpdatedRows > 0n) return false;
        await trx.insertInto('client_update_configs').values(row).execute();
        return true;
      });
    },

    /** 'removed', 'unknown', or 'in-use' when embedded-mode requests still name it. */
    async removeConfig(configId: number): Promise<'removed' | 'unknown' | 'in-use'> {
      try {
        const deleted = await db
          .deleteFrom('client_update_configs')
          .where('config_id', '=', configId)
          .executeTakeFirst();
        return deleted.numDeletedRows > 0n ? 'removed' : 'unknown';
      } catch (error) {
        if (isForeignKeyViolation(error)) return 'in-use';
        throw error;
      }
    },

    async insertRelayedRequest(
      row: Omit<Insertable<RelayedClientUpdateTable>, 'position'>,
    ): Promise<void> {
      await db.insertInto('relayed_client_update_requests').values(row).execute();
    },

    /** Newest first: by insertion order, which is also the order of the clock. */
    listRelayedRequests(entityId: string): Promise<RelayedClientUpdateRow[]> {
      return db
        .selectFrom('relayed_client_update_requests')
        .selectAll()
        .where('entity_id', '=', entityId)
        .orderBy('position', 'desc')
        .execute();
    },
  };
}
