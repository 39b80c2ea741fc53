import crypto from 'node:crypto';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  NATURAL_PERSON_SEARCH_FIELDS,
  naturalPersonResponseSchema,
  searchResponseSchema,
} from '../../contract/entities.ts';
import { foldForSearch } from '../../contract/search-text.ts';
import type { SeedRows } from '../seed/generators.ts';
import { seedRepository } from '../seed/seed-repository.ts';
import { checkFtsIndex } from '../testing/fts-integrity.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';
import { MAX_SEARCH_RESULTS } from './read-model/dialect.ts';
import { lateNameCount, readModelRepository, renumberNameOrder } from './read-model/repository.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';

let server: TestServer;
let clock = Date.parse('2020-01-01T00:00:00.000Z');

interface Person {
  first: string;
  last: string;
  email?: string;
  phone?: string;
  externalId?: string;
}

function emptyRows(): SeedRows {
  return {
    entities: [],
    legalEntities: [],
    naturalPersons: [],
    links: [],
    verifications: [],
    documents: [],
    documentChunks: [],
  };
}

/** Adds the person to the batch, one second after the previous one: the order is the creation order. */
function addPerson(rows: SeedRows, person: Person): string {
  const id = crypto.randomUUID();
  clock += 1000;
  const createdAt = new Date(clock).toISOString();
  rows.entities.push({
    id,
    kind: 'person',
    created_at: createdAt,
    external_id: person.externalId ?? null,
    kyc_status: 'New',
    risk_level: 'Low',
    last_update: createdAt,
    next_kyc_review: null,
    tags: '[]',
  });
  rows.naturalPersons.push({
    entity_id: id,
    first_name: person.first,
    middle_name: null,
    last_name: person.last,
    date_of_birth: null,
    email: person.email ?? null,
    phone: person.phone ?? null,
    address: null,
    city: null,
    state_province: null,
    country_code: 'GB',
    postal_code: null,
  });
  return id;
}

async function insert(rows: SeedRows) {
  const db = server.app.services.db;
  await seedRepository(db).inTransaction((trx) => seedRepository(trx).insert(rows));
}

async function search(query: string) {
  const response = await server.request(`/api/v2/entities/natural-persons?${query}`);
  expect(response.status, response.text).toBe(200);
  return searchResponseSchema.parse(response.body).data;
}

async function expectBadSearch(query: string, mentioned: string) {
  const response = await server.request(`/api/v2/entities/natural-persons${query}`);
  expect(response.status, response.text).toBe(400);
  expect(errorEnvelopeSchema.parse(response.body).message).toContain(mentioned);
}

const param = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;

const ids = { zoe: '', zoeCapitals: '', hans: '', ada: '' };

beforeAll(async () => {
  server = await startTestServer();
  const rows = emptyRows();
  ids.zoe = addPerson(rows, {
    first: 'Zoë',
    last: 'Ängström-Straße',
    email: 'Zoe.Angstrom@Example.COM',
    phone: '+44 (20) 7946-0999',
    externalId: 'CRM-Straße-1',
  });
  ids.zoeCapitals = addPerson(rows, { first: 'ZOË', last: 'MÜLLER', phone: '+44 20 7946 0001' });
  ids.hans = addPerson(rows, { first: 'Hans', last: 'Grossmann', email: 'hans@example.com' });
  await insert(rows);
  // A primary contact created through the API, with a legal entity of the same external ID.
  const payload = legalEntityPayload({ externalID: 'CRM-Straße-1' });
  if (payload.primaryContact) {
    payload.primaryContact.firstName = 'Ada';
    payload.primaryContact.lastName = 'Ångström';
  }
  const created = await postLegalEntity(server, payload);
  expect(created.status, created.text).toBe(201);
  const body = created.body as { data: { linkedEntities: { entityID: string }[] } };
  ids.ada = body.data.linkedEntities[0]?.entityID ?? '';
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/v2/entities/natural-persons (search)', () => {
  it('finds first and last names by substring, folded, oldest first', async () => {
    expect(await search(param('firstName', 'zoë'))).toEqual([ids.zoe, ids.zoeCapitals]);
    expect(await search(param('firstName', 'ZOË'))).toEqual([ids.zoe, ids.zoeCapitals]);
    expect(await search(param('firstName', 'Zoe\u0308'))).toEqual([ids.zoe, ids.zoeCapitals]);
    // Accents are ignored (decisions.md): Ängström and Ångström are one name to search.
    expect(await search(param('firstName', 'zoe'))).toEqual([ids.zoe, ids.zoeCapitals]);
    expect(await search(param('lastName', 'STRASSE'))).toEqual([ids.zoe]);
    expect(await search(param('lastName', 'ängström'))).toEqual([ids.zoe, ids.ada]);
    expect(await search(param('lastName', 'ÅNGSTRÖM'))).toEqual([ids.zoe, ids.ada]);
    expect(await search(param('lastName', 'angstrom-strasse'))).toEqual([ids.zoe]);
    expect(await search(param('lastName', 'Angstrom‑Strasse'))).toEqual([ids.zoe]);
    expect(await search(param('lastName', 'müll'))).toEqual([ids.zoeCapitals]);
    // One or two code points after folding: the LIKE path, with the same folding.
    expect(await search(param('lastName', 'ß'))).toEqual([ids.zoe, ids.hans]);
    expect(await search(param('lastName', 'Ö'))).toEqual([ids.zoe, ids.hans, ids.ada]);
    expect(await search(param('lastName', 'mu'))).toEqual([ids.zoeCapitals]);
  });

  it('takes %, _ and FTS5 syntax in names literally', async () => {
    expect(await search(param('lastName', '%'))).toEqual([]);
    expect(await search(param('lastName', '_'))).toEqual([]);
    expect(await search(param('lastName', 'gross*'))).toEqual([]);
    expect(await search(param('lastName', '"grossmann"'))).toEqual([]);
    expect(await search(param('lastName', 'Grossmann OR Müller'))).toEqual([]);
  });

  it('matches email and externalID exactly, folded', async () => {
    expect(await search(param('email', 'ZOE.ANGSTROM@EXAMPLE.COM'))).toEqual([ids.zoe]);
    expect(await search(param('email', 'zoe.angstrom@example.com'))).toEqual([ids.zoe]);
    expect(await search(param('email', 'zoe.angstrom'))).toEqual([]);
    // The legal entity with the same external ID is not a natural person.
    expect(await search(param('externalID', 'crm-strasse-1'))).toEqual([ids.zoe]);
    expect(await search(param('externalID', 'CRM-STRASSE'))).toEqual([]);
  });

  it('compares only the digits of phone numbers', async () => {
    expect(await search(param('phone', '44 20 7946 0999'))).toEqual([ids.zoe]);
    expect(await search(param('phone', '+44.20.7946.0001'))).toEqual([ids.zoeCapitals]);
    expect(await search(param('phone', '7946 0999'))).toEqual([]);
  });

  it('requires every given parameter to match (AND)', async () => {
    expect(await search(`${param('firstName', 'zoë')}&${param('lastName', 'müller')}`)).toEqual([
      ids.zoeCapitals,
    ]);
    expect(
      await search(
        `${param('firstName', 'ZOË')}&${param('lastName', 'STRASSE')}&${param('email', 'zoe.angstrom@example.com')}&${param('phone', '442079460999')}&${param('externalID', 'CRM-STRASSE-1')}`,
      ),
    ).toEqual([ids.zoe]);
    expect(await search(`${param('firstName', 'hans')}&${param('phone', '442079460000')}`)).toEqual(
      [],
    );
  });

  it('answers hostile text in every parameter with no match or 400, never 500', async () => {
    const hostile = ["' OR 1=1 --", '%%', '\\', '"', 'NEAR(zoë)', '*', 'Ⓩoë', 'a'.repeat(300)];
    for (const field of NATURAL_PERSON_SEARCH_FIELDS) {
      for (const value of hostile) {
        const response = await server.request(
          `/api/v2/entities/natural-persons?${param(field, value)}`,
        );
        const label = `${field}=${value}`;
        expect([200, 400], label).toContain(response.status);
        if (response.status === 200) {
          const found = searchResponseSchema.parse(response.body).data;
          // NFKC makes the circled Ⓩ a Z: the one true match among these.
          expect(found, label).toEqual(
            field === 'firstName' && value === 'Ⓩoë' ? [ids.zoe, ids.zoeCapitals] : [],
          );
        } else {
          errorEnvelopeSchema.parse(response.body);
        }
      }
    }
  });

  it('leaves the by-id route to one person', async () => {
    const response = await server.request(`/api/v2/entities/natural-persons/${ids.hans}`);
    expect(response.status).toBe(200);
    expect(naturalPersonResponseSchema.parse(response.body).data.personalInformation.lastName).toBe(
      'Grossmann',
    );
  });

  it('rejects a search without parameters, an unknown or empty one, naming it', async () => {
    await expectBadSearch('', 'at least one search parameter');
    await expectBadSearch('?companyName=zoe', 'companyName');
    await expectBadSearch('?firstName=zoe&limit=5', 'limit');
    await expectBadSearch('?lastName=', 'lastName');
    await expectBadSearch('?phone=abc', 'phone');
    await expectBadSearch(`?${param('firstName', 'zo\u0000e')}`, 'control characters');
  });

  it('is declared in the OpenAPI document with its parameters', async () => {
    const response = await server.request('/api/openapi.json', { auth: 'none' });
    const document = response.body as {
      paths: Record<string, Record<string, { parameters: { name: string }[] } | undefined>>;
    };
    const declared = document.paths['/api/v2/entities/natural-persons']?.get;
    expect(declared?.parameters.map((parameter) => parameter.name).sort()).toEqual(
      ['email', 'externalID', 'firstName', 'lastName', 'phone'].sort(),
    );
  });
});

describe('natural-person name search: index path and LIKE fallback', () => {
  // The list-order copy and its late list are SQLite's (migration 0017); PostgreSQL uses pg_trgm.
  it.runIf(testEngine === 'sqlite')(
    'follows renames and deletions, with the names late and numbered again',
    async () => {
      const rows = emptyRows();
      const renamed = addPerson(rows, { first: 'Quillonar', last: 'Renamable' });
      const deleted = addPerson(rows, { first: 'Quillonar', last: 'Deletable' });
      await insert(rows);
      const db = server.app.services.db;
      await db
        .updateTable('natural_persons')
        .set({ last_name: 'Tamarindo', last_name_folded: foldForSearch('Tamarindo') })
        .where('entity_id', '=', renamed)
        .execute();
      await db.deleteFrom('entities').where('id', '=', deleted).execute();
      // Created in 2020, after persons created now: late until numbered again.
      expect(await lateNameCount(db, 'person')).toBeGreaterThan(0);
      for (const renumbered of [false, true]) {
        if (renumbered) await renumberNameOrder(db, 'person');
        expect(await search(param('firstName', 'QUILLONAR'))).toEqual([renamed]);
        expect(await search(param('firstName', 'QUI'))).toEqual([renamed]);
        expect(await search(param('lastName', 'tamarind'))).toEqual([renamed]);
        expect(await search(param('lastName', 'renamable'))).toEqual([]);
        expect(await search(param('lastName', 'deletable'))).toEqual([]);
        // Two fragments too short for a trigram read the n-gram index, which follows too.
        expect(await search(`${param('firstName', 'qu')}&${param('lastName', 'ta')}`)).toEqual([
          renamed,
        ]);
        expect(await search(`${param('firstName', 'qu')}&${param('lastName', 'bl')}`)).toEqual([]);
      }
      expect(await lateNameCount(db, 'person')).toBe(0);
      for (const index of [
        'natural_person_name_order_fts',
        'natural_person_name_order_grams',
        'natural_person_name_order_quadgrams',
      ]) {
        await expect(checkFtsIndex(db, index), index).resolves.toBeDefined();
      }
    },
  );

  it('give the same 500 oldest matches, folded', async () => {
    const rows = emptyRows();
    const marked: string[] = [];
    // More matches than the cap, with the marker in capitals in half of them.
    for (let index = 0; index < MAX_SEARCH_RESULTS + 20; index++) {
      const last = index % 2 === 0 ? 'Weißmüller' : 'WEISSMÜLLER';
      marked.push(addPerson(rows, { first: `Person ${String(index)}`, last }));
    }
    addPerson(rows, { first: 'Other', last: 'Weissmuller' });
    await insert(rows);

    const repository = readModelRepository(server.app.services.db);
    for (const fragment of ['weißmüller', 'SSMÜ', 'ß']) {
      const expected = fragment === 'ß' ? [ids.zoe, ids.hans, ...marked] : marked;
      const byIndex = await repository.searchNaturalPersons({ lastNameContains: fragment });
      const byLike = await repository.searchNaturalPersons({ lastNameContains: fragment }, 'walk');
      expect(byIndex, fragment).toEqual(expected.slice(0, MAX_SEARCH_RESULTS));
      expect(byLike, fragment).toEqual(expected.slice(0, MAX_SEARCH_RESULTS));
      expect(await search(param('lastName', fragment)), fragment).toEqual(
        expected.slice(0, MAX_SEARCH_RESULTS),
      );
    }
    expect(foldForSearch('WEISSMÜLLER')).toBe(foldForSearch('Weißmüller'));
    // Each name is searched in its own column, on both paths.
    for (const plan of ['best', 'walk'] as const) {
      expect(await repository.searchNaturalPersons({ lastNameContains: 'person' }, plan)).toEqual(
        [],
      );
      expect(await repository.searchNaturalPersons({ firstNameContains: 'weiß' }, plan)).toEqual(
        [],
      );
      // Both names at once, one of them too short for a trigram.
      expect(
        await repository.searchNaturalPersons(
          { firstNameContains: 'on 1', lastNameContains: 'ß' },
          plan,
        ),
      ).toEqual(
        marked.filter((_, index) => String(index).startsWith('1')).slice(0, MAX_SEARCH_RESULTS),
      );
    }
  });
});
