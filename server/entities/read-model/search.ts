import type {
  LegalEntitySearchQuery,
  NaturalPersonSearchQuery,
} from '../../../contract/entities.ts';
import type { Db } from '../../db/database.ts';
import type { NameKind } from './dialect.ts';
import { phoneQuery } from './phone-search.ts';
import { lateNameCount, readModelRepository, renumberNameOrder } from './repository.ts';

/** What is searched: legal entities or natural persons, with the route's query. */
export type SearchRequest =
  | { type: 'legal-entities'; query: LegalEntitySearchQuery }
  | { type: 'natural-persons'; query: NaturalPersonSearchQuery };

/**
 * IDs of the entities matching every given criterion, oldest first. DUNS are stored as 9 digits,
 * so `4567890` is compared as `004567890`; a phone is read as the digits it may be stored as.
 */
export function search(db: Db, request: SearchRequest): Promise<string[]> {
  const repository = readModelRepository(db);
  if (request.type === 'legal-entities') {
    const { query } = request;
    return repository.searchLegalEntities({
      companyNameContains: query.companyName,
      registrationNumber: query.registrationNumber,
      glei: query.glei,
      externalId: query.externalID,
      duns: query.duns?.padStart(9, '0'),
      phone: query.phone === undefined ? undefined : phoneQuery(query.phone),
      primaryContactEmail: query.email,
    });
  }
  const { query } = request;
  return repository.searchNaturalPersons({
    firstNameContains: query.firstName,
    lastNameContains: query.lastName,
    email: query.email,
    phone: query.phone === undefined ? undefined : phoneQuery(query.phone),
    externalId: query.externalID,
  });
}

/** Late names of a kind past which a start numbers them all again: each costs every search a test. */
const MAX_LATE_NAMES = 1_000;

/**
 * At start: renumbers a kind's names in list order when too many arrived out of it (two
 * processes creating at once, clocks that step back); returns how many were late.
 */
export async function keepNamesInListOrder(
  db: Db,
  kind: NameKind,
  maxLate = MAX_LATE_NAMES,
): Promise<{ late: number; renumbered: boolean }> {
  const late = await lateNameCount(db, kind);
  if (late <= maxLate) return { late, renumbered: false };
  await db.transaction().execute((trx) => renumberNameOrder(trx, kind));
  return { late, renumbered: true };
}
