import { searchResponseSchema } from '../../contract/entities.ts';
import { ensureDemoData } from '../seed/demo.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';

let server: TestServer;
let companies: { id: string; name: string }[] = [];
let people: { id: string; first: string; last: string }[] = [];

/**
 * A name as a reviewer types it, written apart from foldForSearch so the test does not check the
 * fold against itself: accents dropped, the letters without a decomposition spelled out, lower case.
 */
function typedWithoutAccents(name: string): string {
  const letters: Record<string, string> = { ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', æ: 'ae', Æ: 'ae' };
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁøØæÆ]/g, (letter) => letters[letter] ?? letter)
    .replace(/ß/g, 'ss')
    .toLowerCase();
}

const param = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;

async function search(kind: 'legal-entities' | 'natural-persons', query: string) {
  const response = await server.request(`/api/v2/entities/${kind}?${query}`);
  expect(response.status, `${query}: ${response.text}`).toBe(200);
  return searchResponseSchema.parse(response.body).data;
}

beforeAll(async () => {
  server = await startTestServer();
  expect(await ensureDemoData(server.app.services)).not.toBeNull();
  // The examples, whatever names the demo data happens to draw.
  for (const [companyName, country, lastName] of [
    ['Étoile du Nord SARL', 'FR', 'Lovelace'],
    ['SÃO JORGE Transportes Lda', 'PT', 'Lovelace'],
    ['Conservas Cantábrica SL', 'ES', 'González'],
    ['Świt Logistyka Sp. z o.o.', 'PL', 'Lovelace'],
  ] as const) {
    const payload = legalEntityPayload({ corporateInformation: { companyName, country } });
    if (payload.primaryContact) payload.primaryContact.lastName = lastName;
    const created = await postLegalEntity(server, payload);
    expect(created.status, created.text).toBe(201);
  }
  const db = server.app.services.db;
  companies = (
    await db.selectFrom('legal_entities').select(['entity_id', 'company_name']).execute()
  ).map((row) => ({ id: row.entity_id, name: row.company_name }));
  people = (
    await db
      .selectFrom('natural_persons')
      .select(['entity_id', 'first_name', 'last_name'])
      .execute()
  ).map((row) => ({ id: row.entity_id, first: row.first_name, last: row.last_name }));
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('search ignores accents (decisions.md)', () => {
  it('finds every demo company by its unaccented, lower-case name and by each word of it', async () => {
    expect(companies.length).toBe(164);
    expect(companies.some((company) => company.name !== typedWithoutAccents(company.name))).toBe(
      true,
    );
    for (const company of companies) {
      const typed = typedWithoutAccents(company.name);
      for (const text of new Set([typed, ...typed.split(/\s+/).filter(Boolean)])) {
        expect(
          await search('legal-entities', param('companyName', text)),
          `${company.name} by ${text}`,
        ).toContain(company.id);
      }
    }
  }, 120_000);

  it('finds every demo person by unaccented, lower-case first and last names and each word', async () => {
    expect(people.some((person) => person.last !== typedWithoutAccents(person.last))).toBe(true);
    for (const person of people) {
      const first = typedWithoutAccents(person.first);
      const last = typedWithoutAccents(person.last);
      expect(
        await search('natural-persons', `${param('firstName', first)}&${param('lastName', last)}`),
        `${person.first} ${person.last}`,
      ).toContain(person.id);
      for (const [name, words] of [
        ['firstName', first],
        ['lastName', last],
      ] as const) {
        for (const word of new Set(words.split(/\s+/).filter(Boolean))) {
          expect(
            await search('natural-persons', param(name, word)),
            `${person.first} ${person.last} by ${name} ${word}`,
          ).toContain(person.id);
        }
      }
    }
  }, 120_000);

  it.each([
    ['etoile', 'Étoile'],
    ['sao jorge', 'São Jorge'],
    ['SÃO JORGE', 'São Jorge'],
    ['cantabrica', 'Cantábrica'],
    ['swit', 'Świt'],
  ])('companyName %j finds exactly the companies named with %j', async (typed, written) => {
    const expected = companies.filter((company) =>
      company.name.toLowerCase().includes(written.toLowerCase()),
    );
    expect(expected.length, `demo companies with ${written}`).toBeGreaterThan(0);
    const found = await search('legal-entities', param('companyName', typed));
    expect(found.sort()).toEqual(expected.map((company) => company.id).sort());
  });

  it.each([
    ['gonzalez', 'González'],
    ['GONZALEZ', 'González'],
  ])('lastName %j finds the people named %j', async (typed, written) => {
    const expected = people.filter((person) => person.last.includes(written));
    expect(expected.length, `demo people named ${written}`).toBeGreaterThan(0);
    const found = await search('natural-persons', param('lastName', typed));
    expect(found.sort()).toEqual(expected.map((person) => person.id).sort());
  });

  it('compares typographic apostrophes, quotes and dashes as ASCII, both ways', async () => {
    const created = [];
    for (const companyName of ["Johnson & O'Connor Limited", 'Smith–Jones “North” Ltd']) {
      const response = await postLegalEntity(
        server,
        legalEntityPayload({ corporateInformation: { companyName } }),
      );
      expect(response.status, response.text).toBe(201);
      created.push((response.body as { data: { id: string } }).data.id);
    }
    const [oConnor, smithJones] = created;
    for (const typed of ['O’Connor', 'o‘connor', 'OʼConnor', "o'connor", 'johnson & o’connor'])
      expect(await search('legal-entities', param('companyName', typed)), typed).toContain(oConnor);
    for (const typed of ['smith-jones', 'Smith—Jones', 'smith−jones', '"north"', '„North“'])
      expect(await search('legal-entities', param('companyName', typed)), typed).toEqual([
        smithJones,
      ]);
  });

  it('finds people whose names carry accents by a query that carries others or none', async () => {
    const payload = legalEntityPayload();
    if (payload.primaryContact) {
      payload.primaryContact.firstName = 'Þórunn';
      payload.primaryContact.lastName = 'Đorđević-Wałęsa';
    }
    const response = await postLegalEntity(server, payload);
    expect(response.status, response.text).toBe(201);
    const body = response.body as { data: { linkedEntities: { entityID: string }[] } };
    const contact = body.data.linkedEntities[0]?.entityID;
    for (const query of [
      `${param('firstName', 'thorunn')}&${param('lastName', 'dordevic')}`,
      param('lastName', 'walesa'),
      param('lastName', 'DORDEVIC‐WALESA'),
      param('lastName', 'ĐORĐEVIĆ'),
    ]) {
      expect(await search('natural-persons', query), query).toEqual([contact]);
    }
  });
});

describe('phone numbers searched by their digits, national or international', () => {
  it('finds a Spanish number stored in international form by its national digits and the other way round', async () => {
    const payload = legalEntityPayload({
      corporateInformation: { country: 'ES', companyPhone: '+34 637 874 163' },
    });
    if (payload.primaryContact) payload.primaryContact.phone = '637 87 41 64';
    const response = await postLegalEntity(server, payload);
    expect(response.status, response.text).toBe(201);
    const body = response.body as {
      data: { id: string; linkedEntities: { entityID: string }[] };
    };
    const company = body.data.id;
    const contact = body.data.linkedEntities[0]?.entityID;

    for (const phone of [
      '637874163',
      '637 874 163',
      '+34637874163',
      '+34 637 874 163',
      '34637874163',
      '0034 637 874 163',
    ]) {
      expect(await search('legal-entities', param('phone', phone)), phone).toEqual([company]);
    }
    // The contact has no country of their own: the phone is read for the company's country.
    for (const phone of ['637874164', '+34 637 874 164', '0034637874164', '34637874164']) {
      expect(await search('natural-persons', param('phone', phone)), phone).toEqual([contact]);
    }
    for (const phone of ['37874163', '6378741630', '+33 637 874 163', '0034 37874163']) {
      const found = await search('legal-entities', param('phone', phone));
      expect(found, phone).not.toContain(company);
    }
  });

  it('reads a national number with its trunk prefix', async () => {
    const payload = legalEntityPayload({
      corporateInformation: { country: 'GB', companyPhone: '+44 7911 123456' },
    });
    const response = await postLegalEntity(server, payload);
    expect(response.status, response.text).toBe(201);
    const company = (response.body as { data: { id: string } }).data.id;
    for (const phone of ['07911 123456', '7911123456', '+44 (0) 7911 123456', '447911123456'])
      expect(await search('legal-entities', param('phone', phone)), phone).toEqual([company]);
  });
});
