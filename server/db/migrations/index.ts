import type { Migration } from 'kysely/migration';
import * as migration0001 from './0001_initial.ts';
import * as migration0002 from './0002_company_name_trigram.ts';
import * as migration0003 from './0003_document_chunks.ts';
import * as migration0004 from './0004_legal_entity_search_order.ts';
import * as migration0005 from './0005_sign_in_limits.ts';
import * as migration0006 from './0006_search_fold.ts';
import * as migration0007 from './0007_change_counter.ts';
import * as migration0008 from './0008_relayed_client_updates.ts';
import * as migration0009 from './0009_audit_trail_and_roles.ts';
import * as migration0010 from './0010_document_encryption.ts';
import * as migration0011 from './0011_review_queue.ts';
import * as migration0012 from './0012_decisions_and_notes.ts';
import * as migration0013 from './0013_list_storage.ts';
import * as migration0014 from './0014_sqlite_change_counter.ts';
import * as migration0015 from './0015_list_record_kind.ts';
import * as migration0016 from './0016_company_name_order.ts';
import * as migration0017 from './0017_person_name_order.ts';
import * as migration0018 from './0018_short_name_grams.ts';
import * as migration0019 from './0019_name_quadgrams.ts';
import * as migration0020 from './0020_postgres_name_grams.ts';
import * as migration0021 from './0021_company_quadgrams_without_columns.ts';
import * as migration0022 from './0022_accent_folded_search.ts';
import * as migration0023 from './0023_next_review_from_newest_verification.ts';
import * as migration0024 from './0024_person_reviews_and_risk_holds.ts';
import * as migration0025 from './0025_gateway_revoked_tokens.ts';
import * as migration0026 from './0026_entity_assignment.ts';
import * as migration0027 from './0027_client_response_states.ts';
import * as migration0028 from './0028_review_queue_indexes_with_assignee.ts';
import * as migration0029 from './0029_entity_index_orders.ts';
import * as migration0030 from './0030_list_records_after_name_order.ts';
import * as migration0031 from './0031_client_portal.ts';
import * as migration0032 from './0032_client_update_attempts.ts';
import * as migration0034 from './0034_gateway_assignments.ts';
import * as migration0036 from './0036_entity_index_counts.ts';
import * as migration0037 from './0037_entities_empty_as_null.ts';
import * as migration0038 from './0038_entity_planner_statistics.ts';
import * as migration0039 from './0039_entity_index_filters_in_index.ts';
import * as migration0040 from './0040_entity_index_names_hold_sort_keys.ts';
import * as migration0041 from './0041_entity_copies_written_once.ts';
import * as migration0042 from './0042_held_decisions_change_the_counter.ts';
import * as migration0043 from './0043_client_updates_change_the_counter.ts';
import * as migration0044 from './0044_audit_entity_index_names_an_entity.ts';

/**
 * Every migration, in the order applied, under the key installed databases record in
 * kysely_migration. A static list, so the bundle carries them; a new one goes at the end, and
 * a released one is never edited (checksums.json, docs/migrations.md).
 */
export const MIGRATIONS: readonly (readonly [key: string, migration: Migration])[] = [
  ['0001_initial', migration0001],
  ['0002_company_name_trigram', migration0002],
  ['0003_document_chunks', migration0003],
  ['0004_legal_entity_search_order', migration0004],
  ['0005_sign_in_limits', migration0005],
  ['0006_search_fold', migration0006],
  ['0007_change_counter', migration0007],
  ['0008_relayed_client_updates', migration0008],
  ['0009_audit_trail_and_roles', migration0009],
  ['0010_document_encryption', migration0010],
  ['0011_review_queue', migration0011],
  ['0012_decisions_and_notes', migration0012],
  ['0013_list_storage', migration0013],
  ['0014_sqlite_change_counter', migration0014],
  ['0015_list_record_kind', migration0015],
  ['0016_company_name_order', migration0016],
  ['0017_person_name_order', migration0017],
  ['0018_short_name_grams', migration0018],
  ['0019_name_quadgrams', migration0019],
  ['0020_postgres_name_grams', migration0020],
  ['0021_company_quadgrams_without_columns', migration0021],
  ['0022_accent_folded_search', migration0022],
  ['0023_next_review_from_newest_verification', migration0023],
  ['0024_person_reviews_and_risk_holds', migration0024],
  ['0025_gateway_revoked_tokens', migration0025],
  ['0026_entity_assignment', migration0026],
  ['0027_client_response_states', migration0027],
  ['0028_review_queue_indexes_with_assignee', migration0028],
  ['0029_entity_index_orders', migration0029],
  ['0030_list_records_after_name_order', migration0030],
  ['0031_client_portal', migration0031],
  ['0032_client_update_attempts', migration0032],
  ['0034_gateway_assignments', migration0034],
  ['0036_entity_index_counts', migration0036],
  ['0037_entities_empty_as_null', migration0037],
  ['0038_entity_planner_statistics', migration0038],
  ['0039_entity_index_filters_in_index', migration0039],
  ['0040_entity_index_names_hold_sort_keys', migration0040],
  ['0041_entity_copies_written_once', migration0041],
  ['0042_held_decisions_change_the_counter', migration0042],
  ['0043_client_updates_change_the_counter', migration0043],
  ['0044_audit_entity_index_names_an_entity', migration0044],
];
