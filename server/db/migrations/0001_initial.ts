import { type Kysely, sql } from 'kysely';
import { ignoringCase, bytesType } from './helpers/0001-engine.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('legal', 'person')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('kyc_status', 'text', (c) => c.notNull())
    .addColumn('risk_level', 'text', (c) => c.notNull())
    .addColumn('last_update', 'text', (c) => c.notNull())
    .addColumn('next_kyc_review', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createIndex('entities_order')
    .on('entities')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('entities_kind_order')
    .on('entities')
    .columns(['kind', 'created_at', 'id'])
    .execute();
  await sql`create index entities_external_id on entities (${ignoringCase(db, 'external_id')})`.execute(
    db,
  );

  await db.schema
    .createTable('legal_entities')
    .addColumn('entity_id', 'text', (c) =>
      c.primaryKey().references('entities.id').onDelete('cascade'),
    )
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('registration_number', 'text', (c) => c.notNull())
    .addColumn('date_of_incorporation', 'text')
    .addColumn('duns', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('glei', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company_phone', 'text')
    .addColumn('company_phone_digits', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('primary_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state_province', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`create unique index legal_entities_registration on legal_entities (${ignoringCase(db, 'registration_number')}, country)`.execute(
    db,
  );
  await sql`create index legal_entities_duns on legal_entities (duns)`.execute(db);
  await sql`create index legal_entities_glei on legal_entities (${ignoringCase(db, 'glei')})`.execute(
    db,
  );
  await sql`create index legal_entities_phone on legal_entities (company_phone_digits)`.execute(db);

  await db.schema
    .createTable('natural_persons')
    .addColumn('entity_id', 'text', (c) =>
      c.primaryKey().references('entities.id').onDelete('cascade'),
    )
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('middle_name', 'text')
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('state_province', 'text')
    .addColumn('country_code', 'text')
    .addColumn('postal_code', 'text')
    .execute();
  await sql`create index natural_persons_email on natural_persons (${ignoringCase(db, 'email')})`.execute(
    db,
  );

  await db.schema
    .createTable('entity_links')
    .addColumn('legal_entity_id', 'text', (c) =>
      c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
    )
    .addColumn('person_id', 'text', (c) =>
      c.notNull().references('natural_persons.entity_id').onDelete('cascade'),
    )
    .addColumn('relationship', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entity_links_pk', ['legal_entity_id', 'person_id', 'relationship'])
    .execute();
  await sql`create unique index entity_links_one_primary on entity_links (legal_entity_id) where relationship = 'Primary Contact'`.execute(
    db,
  );
  await db.schema
    .createIndex('entity_links_person')
    .on('entity_links')
    .column('person_id')
    .execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('legal_entity_id', 'text', (c) =>
      c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
    )
    .addColumn('legal_entity_verification', 'integer', (c) => c.notNull())
    .addColumn('verification_status', 'text', (c) => c.notNull())
    .addColumn('verification_date', 'text', (c) => c.notNull())
    .addColumn('verification_source', 'text', (c) => c.notNull())
    .addColumn('business_statement', 'text', (c) => c.notNull())
    .addColumn('next_review_date', 'text', (c) => c.notNull())
    .addColumn('verification_issues', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('verifications_entity')
    .on('verifications')
    .columns(['legal_entity_id', 'verification_date'])
    .execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'text', (c) =>
      c.notNull().references('entities.id').onDelete('cascade'),
    )
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('date_received', 'text', (c) => c.notNull())
    .addColumn('approved', 'integer', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('documents_entity')
    .on('documents')
    .columns(['entity_id', 'date_received'])
    .execute();
  await db.schema
    .createTable('document_contents')
    .addColumn('document_id', 'text', (c) =>
      c.primaryKey().references('documents.id').onDelete('cascade'),
    )
    .addColumn('bytes', bytesType(db), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('api_key_hash', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index accounts_username on accounts (${ignoringCase(db, 'username')})`.execute(
    db,
  );
  await sql`create unique index accounts_api_key on accounts (api_key_hash) where api_key_hash is not null`.execute(
    db,
  );

  await db.schema
    .createTable('sessions')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();

  await db.schema
    .createTable('client_update_configs')
    .addColumn('config_id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('default_subject', 'text', (c) => c.notNull())
    .addColumn('default_message', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('client_update_configs' as never)
    .values([
      {
        config_id: 1,
        name: 'Request updated information',
        description: 'Asks the client to review and update their company and contact details.',
        default_subject: 'Please review your company information',
        default_message:
          'Hello,\n\nAs part of our regular compliance review we ask you to confirm that the information we hold about your company is still correct, and to update anything that has changed.\n\nThank you.',
      },
      {
        config_id: 2,
        name: 'Request supporting documents',
        description: 'Asks the client to upload new or missing supporting documents.',
        default_subject: 'Supporting documents needed for your compliance review',
        default_message:
          'Hello,\n\nTo complete our compliance review we need up-to-date supporting documents from you, such as a recent proof of address and your certificate of incorporation.\n\nThank you.',
      },
    ] as never)
    .execute();

  await db.schema
    .createTable('client_update_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_id', 'text', (c) =>
      c.notNull().references('legal_entities.entity_id').onDelete('cascade'),
    )
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('recipient_email', 'text', (c) => c.notNull())
    .addColumn('config_id', 'integer', (c) =>
      c.notNull().references('client_update_configs.config_id'),
    )
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'failed')`))
    .addColumn('error', 'text')
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('client_update_requests_entity')
    .on('client_update_requests')
    .columns(['entity_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
