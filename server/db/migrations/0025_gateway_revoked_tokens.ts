import { type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Gateway mode: tokens signed out here, refused until they expire although the identity
  // service, which has no sign-out, would still confirm them.
  await db.schema
    .createTable('gateway_revoked_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
