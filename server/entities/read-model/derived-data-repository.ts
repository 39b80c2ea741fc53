import { sql } from 'kysely';
import {
  currentVerificationOf,
  type DatedVerification,
} from '../../../contract/current-verification.ts';
import { PRIMARY_CONTACT } from '../../../contract/entities.ts';
import { foldForSearch } from '../../../contract/search-text.ts';
import type { Db } from '../../db/database.ts';
import type { DerivedDataRebuilders } from './derived-data.ts';
import { rebuildListRecords, refreshListRecords } from './list-records.ts';
import { phoneSearchDigits } from './phone-search.ts';
import { readModelDialectOf, renumberNameOrder } from './repository.ts';

/**
 * How the start-up step (db/derived-data.ts) rebuilds what migrations ask for, with today's code:
 * folded and phone search columns, the name copies in list order, the current verification's
 * status and review date, the list records.
 */
export const entityDerivedData: DerivedDataRebuilders = {
  'search-columns': recomputeSearchColumns,
  'company-name-order': async (db) => {
    await renumberNameOrder(db, 'company');
    return undefined;
  },
  'person-name-order': async (db) => {
    await renumberNameOrder(db, 'person');
    return undefined;
  },
  'current-verifications': repairCurrentVerifications,
  'list-records': rebuildListRecords,
};

/** Rows per UPDATE when values computed in JavaScript are written back. */
const ROWS_PER_UPDATE = 500;

/**
 * Computes every stored search column again (foldForSearch's folded copies, the phones'
 * international and national digits) and writes the rows that differ; the name copies and their
 * indexes follow through their triggers. Returns how many rows changed.
 */
export async function recomputeSearchColumns(db: Db): Promise<number> {
  const folded = (
    table: string,
    key: string,
    columns: readonly (readonly [source: string, target: string])[],
  ) =>
    recomputeColumns<{ id: string } & Record<string, string | null>>(
      db,
      table,
      key,
      columns.map(([, target]) => target),
      async (after, limit) =>
        (
          await sql<
            { id: string } & Record<string, string | null>
          >`select ${sql.ref(key)} as id, ${sql.join(
            columns.flatMap(([source, target]) => [sql.ref(source), sql.ref(target)]),
          )} from ${sql.table(table)} ${afterKey(key, after, limit)}`.execute(db)
        ).rows,
      (row) =>
        Object.fromEntries(
          columns.map(([source, target]) => {
            const text = row[source];
            return [target, text === null || text === undefined ? null : foldForSearch(text)];
          }),
        ),
    );
  const external = await folded('entities', 'id', [['external_id', 'external_id_folded']]);
  const companies = await folded('legal_entities', 'entity_id', [
    ['company_name', 'company_name_folded'],
  ]);
  const people = await folded('natural_persons', 'entity_id', [
    ['email', 'email_folded'],
    ['first_name', 'first_name_folded'],
    ['last_name', 'last_name_folded'],
  ]);

  // Phones are searched by their international digits or national number, read per country.
  type PhoneRow = { id: string; phone: string | null; country: string | null } & Record<
    string,
    string | null
  >;
  const phoneColumns = (row: PhoneRow, prefix: string) => {
    const digits = phoneSearchDigits(row.phone, row.country);
    return {
      [`${prefix}_international_digits`]: digits.international,
      [`${prefix}_national_digits`]: digits.national,
    };
  };
  const companyPhones = await recomputeColumns<PhoneRow>(
    db,
    'legal_entities',
    'entity_id',
    ['company_phone_international_digits', 'company_phone_national_digits'],
    async (after, limit) =>
      (
        await sql<PhoneRow>`select entity_id as id, company_phone as phone, country,
          company_phone_international_digits, company_phone_national_digits
          from legal_entities ${afterKey('entity_id', after, limit)}`.execute(db)
      ).rows,
    (row) => phoneColumns(row, 'company_phone'),
  );
  // A primary contact created with its company has no country code: the company's is used.
  const personPhones = await recomputeColumns<PhoneRow>(
    db,
    'natural_persons',
    'entity_id',
    ['phone_international_digits', 'phone_national_digits'],
    async (after, limit) =>
      (
        await sql<PhoneRow>`select entity_id as id, phone, coalesce(country_code, (
            select legal_entities.country from entity_links
              join legal_entities on legal_entities.entity_id = entity_links.legal_entity_id
              where entity_links.person_id = natural_persons.entity_id
                and entity_links.relationship = ${PRIMARY_CONTACT}
              order by entity_links.legal_entity_id limit 1)) as country,
          phone_international_digits, phone_national_digits
          from natural_persons ${afterKey('entity_id', after, limit)}`.execute(db)
      ).rows,
    (row) => phoneColumns(row, 'phone'),
  );
  const changed = external + companies + people + companyPhones + personPhones;

  await readModelDialectOf(db).afterSearchColumnsRewritten(db, { companies, people });
  return changed;
}

/** Rows read at a time when search columns are computed again. */
const ROWS_PER_READ = 5000;

/**
 * Recomputes columns of `table` in batches of rows read in `key` order: `read` gives the rows after
 * a key with their current values, `compute` the values they should hold; only rows that differ
 * are written, in multi-row UPDATEs (so triggers that copy the columns fire for those alone).
 * Returns how many rows changed.
 */
async function recomputeColumns<Row extends { id: string }>(
  db: Db,
  table: string,
  key: string,
  targets: readonly string[],
  read: (after: string | null, limit: number) => Promise<Row[]>,
  compute: (row: Row) => Record<string, string | null>,
): Promise<number> {
  let after: string | null = null;
  let changed = 0;
  for (;;) {
    const rows = await read(after, ROWS_PER_READ);
    const updates: { id: string; values: (string | null)[] }[] = [];
    for (const row of rows) {
      const computed = compute(row);
      const current = row as unknown as Record<string, string | null>;
      if (targets.some((target) => computed[target] !== current[target]))
        updates.push({ id: row.id, values: targets.map((target) => computed[target] ?? null) });
    }
    for (let start = 0; start < updates.length; start += ROWS_PER_UPDATE) {
      const values = sql.join(
        updates
          .slice(start, start + ROWS_PER_UPDATE)
          .map((update) => sql`(${sql.join([update.id, ...update.values])})`),
      );
      const names = sql.join(
        ['id', ...targets.map((_, index) => `v${index}`)].map((name) => sql.raw(name)),
      );
      const assignments = sql.join(
        targets.map((target, index) => sql`${sql.ref(target)} = computed.${sql.raw(`v${index}`)}`),
      );
      await sql`with computed (${names}) as (values ${values})
        update ${sql.table(table)} set ${assignments} from computed where ${sql.table(table)}.${sql.ref(key)} = computed.id`.execute(
        db,
      );
    }
    changed += updates.length;
    const last = rows.at(-1);
    if (last === undefined || rows.length < ROWS_PER_READ) return changed;
    after = last.id;
  }
}

/** `where key > after order by key limit n`, the batches recomputeColumns reads. */
function afterKey(key: string, after: string | null, limit: number) {
  const from = after === null ? sql`` : sql`where ${sql.ref(key)} > ${after}`;
  return sql`${from} order by ${sql.ref(key)} limit ${limit}`;
}

/** Legal entities read per batch by the repair asked for by 0023. */
const REPAIR_BATCH = 1000;

/**
 * Sets each legal entity's kyc_status and next_kyc_review to its newest verification's (the one
 * rule, currentVerificationOf) where they differ; returns how many entities changed. The entity
 * triggers drop their list records and bump the change counter; the records are built again here.
 */
export async function repairCurrentVerifications(db: Db): Promise<number> {
  let after = '';
  let changed = 0;
  for (;;) {
    const { rows: entities } = await sql<{
      id: string;
      kyc_status: string;
      next_kyc_review: string | null;
    }>`select id, kyc_status, next_kyc_review from entities
      where kind = 'legal' and id > ${after} order by id limit ${REPAIR_BATCH}`.execute(db);
    const last = entities.at(-1);
    if (!last) break;
    after = last.id;
    // Newest last: verification date, then the order recorded (created_at; id for older equal ones).
    const { rows: verifications } = await sql<{
      legal_entity_id: string;
      verification_date: string;
      verification_status: string;
      next_review_date: string;
    }>`select legal_entity_id, verification_date, verification_status, next_review_date
      from verifications where legal_entity_id in (${sql.join(entities.map((entity) => entity.id))})
      order by legal_entity_id, verification_date, created_at, id`.execute(db);
    const byEntity = new Map<string, DatedVerification[]>();
    for (const row of verifications) {
      const list = byEntity.get(row.legal_entity_id) ?? [];
      list.push({
        verificationDate: row.verification_date,
        verificationStatus: row.verification_status,
        nextReviewDate: row.next_review_date,
      });
      byEntity.set(row.legal_entity_id, list);
    }
    const repairs = entities.flatMap((entity) => {
      const current = currentVerificationOf(byEntity.get(entity.id) ?? []);
      if (!current?.kycStatus) return [];
      const agrees =
        current.kycStatus === entity.kyc_status && current.nextKYCReview === entity.next_kyc_review;
      return agrees ? [] : [{ id: entity.id, ...current, kycStatus: current.kycStatus }];
    });
    if (repairs.length === 0) continue;
    const values = sql.join(
      repairs.map((repair) => sql`(${repair.id}, ${repair.kycStatus}, ${repair.nextKYCReview})`),
    );
    await sql`with repaired (id, kyc_status, next_kyc_review) as (values ${values})
      update entities set kyc_status = repaired.kyc_status, next_kyc_review = repaired.next_kyc_review
      from repaired where entities.id = repaired.id`.execute(db);
    // Today's list record of each: the triggers dropped them, and a page would build them on read.
    await refreshListRecords(
      db,
      repairs.map((repair) => repair.id),
    );
    changed += repairs.length;
  }
  return changed;
}
