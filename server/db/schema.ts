import type { Generated, Insertable, Selectable } from 'kysely';
import type { ClientUpdateState } from '../../contract/client-updates.ts';

/** Columns shared by every entity, natural person or legal entity. */
export interface EntityTable {
  id: string;
  kind: 'legal' | 'person';
  /** ISO 8601 with milliseconds, UTC; the list sorts by it, then by id. */
  created_at: string;
  external_id: string | null;
  kyc_status: string;
  risk_level: string;
  last_update: string;
  next_kyc_review: string | null;
  /** JSON array of strings. */
  tags: string;
  /** foldForSearch(external_id), for search. */
  external_id_folded: string | null;
  /** The legal entity's country or the person's country code, copied by triggers, for the review queue; never '' (0037). */
  country: Generated<string | null>;
  /** The username of the reviewer working on the entity, null while unassigned (0026); never '' (0037). */
  assignee: Generated<string | null>;
  /** The folded company name, or last then first name, copied by triggers: the index's name order (0029). */
  name_order: Generated<string>;
}

/** '' stands for a null country or assignee, so that one unique key holds on both engines. */
export interface EntityIndexCountTable {
  kind: 'legal' | 'person';
  kyc_status: string;
  risk_level: string;
  country: string;
  assignee: string;
  n: number | string;
}

export interface LegalEntityTable {
  entity_id: string;
  company_name: string;
  registration_number: string;
  date_of_incorporation: string | null;
  duns: string;
  glei: string;
  company_phone: string | null;
  /** Digits of company_phone, for search that ignores punctuation. */
  company_phone_digits: string;
  /**
   * company_phone's country calling code and national significant number (`34637874163`), read
   * for the entity's country; its digits as entered when it does not parse (0022).
   */
  company_phone_international_digits: string | null;
  /** company_phone's national significant number (`637874163`); null when it does not parse. */
  company_phone_national_digits: string | null;
  email: string;
  primary_address: string;
  city: string;
  state_province: string;
  country: string;
  postal_code: string;
  /** entities.created_at, copied by a trigger on insert, for the search order. */
  created_at: Generated<string>;
  /** foldForSearch(company_name): the trigram index and the LIKE fallback search this. */
  company_name_folded: string;
  /** normalisedRegistrationNumber(registration_number): unique per country; search compares it. */
  registration_number_normalised: string;
}

export interface NaturalPersonTable {
  entity_id: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state_province: string | null;
  country_code: string | null;
  postal_code: string | null;
  /** foldForSearch(email), for search. */
  email_folded: string | null;
  /** foldForSearch of the names: the trigram index and the LIKE fallback search these. */
  first_name_folded: string;
  last_name_folded: string;
  /** Digits of phone, for search that ignores punctuation. */
  phone_digits: string | null;
  /** As legal_entities.company_phone_international_digits, for the person's phone (0022). */
  phone_international_digits: string | null;
  /** As legal_entities.company_phone_national_digits, for the person's phone (0022). */
  phone_national_digits: string | null;
  /** entities.created_at, copied by a trigger on insert, for the search order. */
  created_at: Generated<string>;
}

export interface EntityLinkTable {
  legal_entity_id: string;
  person_id: string;
  relationship: string;
}

export interface VerificationTable {
  id: string;
  legal_entity_id: string;
  legal_entity_verification: number;
  verification_status: string;
  verification_date: string;
  verification_source: string;
  business_statement: string;
  next_review_date: string;
  /** JSON array. */
  verification_issues: string;
  created_at: string;
}

export interface DocumentTable {
  id: string;
  entity_id: string;
  file_name: string;
  type: string;
  description: string | null;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  date_received: string;
  approved: number;
  mime_type: string;
  file_size: number;
  sha256: string;
  /** The reviewer's username, the time (ISO 8601) and, for a rejection, the reason (0012). */
  decided_by: Generated<string | null>;
  decided_at: Generated<string | null>;
  decision_reason: Generated<string | null>;
  /**
   * The seal of the bytes (server/documents/document-crypto.ts): the master key's id, the wrapped
   * data key and the pieces' base nonce; all null for bytes stored in the clear before 0010.
   */
  key_id: string | null;
  wrapped_key: Buffer | null;
  nonce: Buffer | null;
  /** The client-update request whose portal answer brought it (0031); null for staff uploads. */
  client_request_id: Generated<string | null>;
}

/**
 * Bytes apart from metadata, so that listing documents never reads them, in pieces numbered from 0;
 * each piece is its ciphertext and GCM tag when the document is sealed.
 */
export interface DocumentChunkTable {
  document_id: string;
  seq: number;
  bytes: Buffer;
}

export interface AccountTable {
  id: string;
  username: string;
  display_name: string;
  password_hash: string;
  api_key_hash: string | null;
  disabled: number;
  created_at: string;
  role: Generated<'reviewer' | 'auditor'>;
}

/** Issued JWTs by `jti`: a reset password or disabled account deletes its rows. */
export interface SessionTable {
  jti: string;
  account_id: string;
  expires_at: number;
}

export interface IdempotencyKeyTable {
  account_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}

export interface ClientUpdateConfigTable {
  config_id: number;
  name: string;
  description: string;
  default_subject: string;
  default_message: string;
}

export interface ClientUpdateRequestTable {
  id: string;
  entity_id: string;
  recipient_id: string;
  recipient_email: string;
  config_id: number;
  subject: string;
  message: string;
  domain: string;
  status: 'sent' | 'failed';
  error: string | null;
  requested_by: string;
  created_at: string;
  sent_at: string | null;
  /** Where the request stands (0027); `expired` is also read from expires_at (service). */
  state: Generated<ClientUpdateState>;
  opened_at: Generated<string | null>;
  submitted_at: Generated<string | null>;
  reviewed_at: Generated<string | null>;
  reviewed_by: Generated<string | null>;
  expires_at: Generated<string | null>;
  /** sha256 (hex) of the portal link's token (0031); null for links sent before the portal. */
  token_hash: Generated<string | null>;
}

/** A client's answer through the portal (0031): proposed contact corrections and their outcome. */
export interface ClientResponseTable {
  request_id: string;
  entity_id: string;
  recipient_id: string;
  /** JSON `{ email?, phone?, address? }`, null when the client proposed no correction. */
  contact: string | null;
  submitted_at: string;
  contact_outcome: 'applied' | 'dismissed' | null;
  contact_decided_by: string | null;
  contact_decided_at: string | null;
}

/** One e-mail of a client-update request (0032): the first, a resend or a reminder. */
export interface ClientUpdateAttemptTable {
  request_id: string;
  attempt: number;
  kind: 'first' | 'resend' | 'reminder';
  /** `sending` while the mail server has it (or when the process died meanwhile). */
  outcome: 'sending' | 'sent' | 'failed';
  at: string;
  error: string | null;
  sent_by: string;
  idempotency_key: string | null;
}

/** A client-update request the gateway forwarded to the identity service, and its outcome. */
export interface RelayedClientUpdateTable {
  position: Generated<number>;
  request_id: string;
  entity_id: string;
  recipient_id: string;
  recipient_email: string;
  config_id: number;
  subject: string;
  domain: string;
  status: 'sent' | 'failed';
  error: string | null;
  requested_by: string;
  created_at: string;
  sent_at: string | null;
  /** Where the request stands (0027); `expired` is also read from expires_at (service). */
  state: Generated<ClientUpdateState>;
  opened_at: Generated<string | null>;
  submitted_at: Generated<string | null>;
  reviewed_at: Generated<string | null>;
  reviewed_by: Generated<string | null>;
  expires_at: Generated<string | null>;
}

/** Gateway mode: one event of the identity service's webhooks, stored once by its id (0027). */
export interface WebhookEventTable {
  event_id: string;
  event: string;
  event_type: string;
  entity_id: string | null;
  /** The event's own creationTimeUtc, as sent. */
  created_at: string;
  received_at: string;
  /** The relayed request this event moved to `submitted`, if any. */
  request_id: string | null;
}

/**
 * One row per limit an attempt counts against (account, address or device). `pending` while the
 * password is being checked: it holds a place under the limit but is not a failure.
 */
export interface SignInAttemptTable {
  attempt_id: string;
  limit_key: string;
  at_ms: number;
  state: 'pending' | 'failed';
}

/** One audit event; `hash` = SHA-256 of its canonical form, which includes `prev_hash` and `seq`. */
export interface AuditEventTable {
  seq: number;
  id: string;
  at: string;
  actor: string;
  action: string;
  entity_id: string | null;
  document_id: string | null;
  outcome: string;
  request_id: string | null;
  client_address: string | null;
  /** Canonical JSON (sorted keys) of the event's detail object. */
  detail: string;
  prev_hash: string;
  hash: string;
}

/** Retention deleted every event up to `through_seq`, the last of which hashed to `hash`. */
export interface AuditAnchorTable {
  id: number;
  through_seq: number;
  hash: string;
  pruned_at: string;
  pruned_count: number;
}

/**
 * An entity's list JSON, written with every change to it (migration 0013): the parts a list page
 * joins, so a page is read in one query instead of assembled. A missing row is rebuilt on read.
 */
export interface EntityListRecordTable {
  entity_id: string;
  /** entities.created_at: with entity_id, the list order its index and its rows are kept in. */
  created_at: string;
  /** entities.kind: a kind's list pages are range scans of (kind, created_at, entity_id). */
  kind: 'legal' | 'person';
  /** The entity's JSON up to its optional relations (legal entities) or whole (natural persons). */
  head: string;
  /** JSON arrays for the list's corporateVerification and supportingDocuments flags; null for persons. */
  verifications: string | null;
  documents: string | null;
  /** The rest of the legal entity's JSON, from `,"kycMetaData"` to its closing brace; '' for persons. */
  tail: string;
}

/** A review outcome held until a second reviewer confirms or rejects it (four-eyes). */
export interface PendingVerificationTable {
  id: string;
  /** The entity the decision is about (since 0024 any entity, a natural person too). */
  legal_entity_id: string;
  /** What is held (0024): a legal entity's `verification`, a `person-review` or a `risk-level` change. */
  kind: Generated<'verification' | 'person-review' | 'risk-level'>;
  /** JSON of what is held: the verification without id, the person review, or `{ from, to, reason }`. */
  verification: string;
  /** Why it waits: `high` (a High-risk entity) or `all` (FOUR_EYES=all). */
  rule: string;
  requested_by: string;
  requested_by_account: string;
  requested_at: string;
  state: 'pending' | 'confirmed' | 'rejected';
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}

/** A natural person's review outcome (0024); `pending` while a second reviewer has to confirm it. */
export interface PersonReviewTable {
  id: string;
  entity_id: string;
  kyc_status: string;
  next_kyc_review: string;
  reason: string;
  author: string;
  at: string;
  state: 'applied' | 'pending' | 'rejected';
}

/** A note on an entity; `gateway_notes` has the same columns without the foreign key. */
export interface NoteTable {
  id: string;
  entity_id: string;
  author: string;
  /** ISO 8601 with milliseconds, UTC. */
  at: string;
  text: string;
}

export interface Database {
  entities: EntityTable;
  entity_list_records: EntityListRecordTable;
  /** Entities per filter group (0036, kept by triggers). */
  entity_index_counts: EntityIndexCountTable;
  /** PostgreSQL: changes to those counts, appended by triggers until the server folds them in. */
  entity_index_count_deltas: EntityIndexCountTable;
  legal_entities: LegalEntityTable;
  natural_persons: NaturalPersonTable;
  entity_links: EntityLinkTable;
  verifications: VerificationTable;
  documents: DocumentTable;
  document_chunks: DocumentChunkTable;
  accounts: AccountTable;
  sessions: SessionTable;
  idempotency_keys: IdempotencyKeyTable;
  client_update_configs: ClientUpdateConfigTable;
  client_update_requests: ClientUpdateRequestTable;
  client_update_attempts: ClientUpdateAttemptTable;
  client_responses: ClientResponseTable;
  relayed_client_update_requests: RelayedClientUpdateTable;
  app_settings: { key: string; value: string };
  sign_in_attempts: SignInAttemptTable;
  audit_events: AuditEventTable;
  audit_anchor: AuditAnchorTable;
  /** Gateway mode: which reviewer signed in for the token with this SHA-256, until when (ms). */
  gateway_sessions: { token_hash: string; username: string; expires_at: number };
  gateway_revoked_tokens: { token_hash: string; expires_at: number };
  /** Gateway mode: roles of reviewers who sign in at the identity service (default reviewer). */
  gateway_roles: { username: string; role: 'reviewer' | 'auditor' };
  pending_verifications: PendingVerificationTable;
  person_reviews: PersonReviewTable;
  notes: NoteTable;
  gateway_notes: NoteTable;
  /** Gateway mode: who works on an entity of the identity service (unassigned: no row). */
  gateway_assignments: { entity_id: string; assignee: string; assigned_at: string };
  /** Gateway mode: who has signed in here (by lower-cased name), so can be assigned. */
  gateway_reviewers: { username_folded: string; username: string; last_sign_in: string };
  webhook_events: WebhookEventTable;
}

/** Rows as their writers build them; the entities repository adds the search columns. */
export type EntityInput = Omit<Insertable<EntityTable>, 'external_id_folded'>;
export type LegalEntityInput = Omit<
  Insertable<LegalEntityTable>,
  | 'company_name_folded'
  | 'registration_number_normalised'
  | 'company_phone_international_digits'
  | 'company_phone_national_digits'
>;
export type NaturalPersonInput = Omit<
  Insertable<NaturalPersonTable>,
  | 'email_folded'
  | 'first_name_folded'
  | 'last_name_folded'
  | 'phone_digits'
  | 'phone_international_digits'
  | 'phone_national_digits'
>;

export type EntityRow = Selectable<EntityTable>;
export type LegalEntityRow = Selectable<LegalEntityTable>;
export type NaturalPersonRow = Selectable<NaturalPersonTable>;
export type VerificationRow = Selectable<VerificationTable>;
export type DocumentRow = Selectable<DocumentTable>;
export type AccountRow = Selectable<AccountTable>;
export type NewEntity = Insertable<EntityTable>;
