import { randomUUID } from 'node:crypto';
import {
  ENTITY_INDEX_ORDERS,
  ENTITY_INDEX_SORTS,
  entityIndexFilterSchema,
  entityIndexResponseSchema,
  type EntityIndexOrder,
  type EntityIndexSort,
} from '../../contract/entity-index.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { foldForSearch } from '../../contract/search-text.ts';
import type { Db } from '../db/database.ts';
import {
  createEntityIndexKept,
  criteriaOf,
  entityIndexPage,
  type EntityIndexKept,
} from './service.ts';
import {
  entityIndexRepository,
  type EntityIndexDbRow,
  type EntityIndexKey,
  type EntityIndexLead,
  type EntityIndexPlan,
  NAME_ENTRIES_PER_ROW,
} from './repository.ts';
import {
  withEntitySearchColumns,
  withLegalEntitySearchColumns,
  withNaturalPersonSearchColumns,
} from '../entities/read-model/search-columns.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';

let server: TestServer;
let db: Db;

/** What the oracle knows of each generated entity. */
interface Generated {
  id: string;
  kind: 'legal' | 'person';
  name: string;
  nameKey: string;
  externalId: string | null;
  createdAt: string;
  kycStatus: string;
  riskLevel: string;
  /** As the index holds it: '' is stored as null (0037). */
  country: string | null;
  /** The person's country code as written, '' too. */
  countryWritten: string | null;
  nextReview: string | null;
  assignee: string | null;
  documents: number;
}

const NAMES = [
  'Étoile',
  'etoile',
  'Zeta',
  'Alpha',
  'ALPHA',
  'São Jorge',
  'Øresund',
  'Beta',
  'b',
  'Straße',
];
const STATUSES = ['New', 'Pending', 'Review', 'Accepted', 'Rejected'];
const RISKS = ['Low', 'Medium', 'High'];
const COUNTRIES = ['GB', 'DE', 'FR', 'ES'];
const DATES = [null, '2025-01-01', '2026-03-15', '2026-03-15', '2027-12-31'];
const ASSIGNEES = [null, 'alice', 'bob'];
/** Few distinct values so that ties on the sort key are many: the id must break them. */
const CREATED = [
  '2026-01-01T00:00:00.000Z',
  '2026-02-01T00:00:00.000Z',
  '2026-03-01T10:00:00.000Z',
];

/** A deterministic pick, so a failure can be replayed. */
let seed = 42;
function pick<T>(values: readonly T[]): T {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  // The high bits: the low ones of this generator repeat (the lowest alternates).
  return values[Math.floor(seed / 65_536) % values.length] as T;
}

const generated: Generated[] = [];

async function generate(count: number) {
  await db.transaction().execute(async (trx) => {
    for (let n = 0; n < count; n += 1) {
      const id = randomUUID();
      const kind = pick(['legal', 'person'] as const);
      const base = pick(NAMES);
      // Some persons without a country, or with an empty one, which 0037 stores as null.
      const picked = pick(COUNTRIES);
      const country = kind === 'legal' || n % 7 > 1 ? picked : n % 7 === 1 ? '' : null;
      const entity = {
        id,
        kind,
        created_at: pick(CREATED),
        external_id: n % 17 === 0 ? `CRM-${n}` : null,
        kyc_status: pick(STATUSES),
        risk_level: pick(RISKS),
        last_update: '2026-03-01T00:00:00.000Z',
        next_kyc_review: pick(DATES),
        tags: '[]',
      };
      await trx
        .insertInto('entities')
        .values({ ...withEntitySearchColumns(entity, null), assignee: pick(ASSIGNEES) })
        .execute();
      let name: string;
      let nameKey: string;
      if (kind === 'legal') {
        name = `${base} ${n % 3 === 0 ? 'GmbH' : 'Ltd'}`;
        nameKey = foldForSearch(name);
        await trx
          .insertInto('legal_entities')
          .values(
            withLegalEntitySearchColumns({
              entity_id: id,
              company_name: name,
              registration_number: `IX${n}`,
              date_of_incorporation: null,
              duns: '',
              glei: '',
              company_phone: null,
              company_phone_digits: '',
              email: `office${n}@example.com`,
              primary_address: '1 Street',
              city: 'City',
              state_province: '',
              country: picked,
              postal_code: '1',
            }),
          )
          .execute();
      } else {
        const last = pick(NAMES);
        name = `${base} ${n % 4 === 0 ? 'Q ' : ''}${last}`;
        nameKey = `${foldForSearch(last)} ${foldForSearch(base)}`;
        await trx
          .insertInto('natural_persons')
          .values(
            withNaturalPersonSearchColumns({
              entity_id: id,
              first_name: base,
              middle_name: n % 4 === 0 ? 'Q' : null,
              last_name: last,
              date_of_birth: null,
              email: null,
              phone: null,
              address: null,
              city: null,
              state_province: null,
              country_code: country?.toLowerCase() ?? null,
              postal_code: null,
            }),
          )
          .execute();
      }
      const documents = n % 5 === 0 ? 2 : 0;
      for (let d = 0; d < documents; d += 1) {
        await trx
          .insertInto('documents')
          .values({
            id: randomUUID(),
            entity_id: id,
            file_name: 'a.pdf',
            type: 'Other',
            description: null,
            date_received: '2026-01-01 00:00:00',
            approved: 0,
            mime_type: 'application/pdf',
            file_size: 1,
            sha256: '0'.repeat(64),
            key_id: null,
            wrapped_key: null,
            nonce: null,
          })
          .execute();
      }
      const row = await trx
        .selectFrom('entities')
        .select('assignee')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      generated.push({
        id,
        kind,
        name,
        nameKey,
        externalId: entity.external_id,
        createdAt: entity.created_at,
        kycStatus: entity.kyc_status,
        riskLevel: entity.risk_level,
        country: country === '' ? null : country,
        countryWritten: country,
        nextReview: entity.next_kyc_review,
        assignee: row.assignee,
        documents,
      });
    }
  });
}

/** Code-point order, as both engines compare these columns (binary; collate "C" on PostgreSQL). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function keyOf(entity: Generated, sort: EntityIndexSort): string {
  switch (sort) {
    case 'name':
      return entity.nameKey;
    case 'created':
      return entity.createdAt;
    case 'nextReview':
      return entity.nextReview ?? '9999-12-31';
    case 'status':
      return entity.kycStatus;
  }
}

type Filter = Record<string, string>;

const SORTS_AND_ORDERS = ENTITY_INDEX_SORTS.flatMap((sort) =>
  ENTITY_INDEX_ORDERS.map((order) => [sort, order] as const),
);

function oracle(filter: Filter, sort: EntityIndexSort, order: EntityIndexOrder): string[] {
  const caller = server.account.username;
  const assignee = filter.assignee === 'me' ? caller : filter.assignee;
  const q = filter.q;
  return generated
    .filter(
      (entity) =>
        (filter.type === undefined ||
          (filter.type === 'legal-entities') === (entity.kind === 'legal')) &&
        (filter.kycStatus === undefined || entity.kycStatus === filter.kycStatus) &&
        (filter.riskLevel === undefined || entity.riskLevel === filter.riskLevel) &&
        (filter.country === undefined || entity.country === filter.country) &&
        (assignee === undefined || entity.assignee === (assignee === 'none' ? null : assignee)) &&
        (q === undefined ||
          entity.nameKey.startsWith(foldForSearch(q)) ||
          entity.id === q ||
          (entity.externalId !== null && foldForSearch(entity.externalId) === foldForSearch(q))),
    )
    .sort((a, b) => {
      const sign = order === 'asc' ? 1 : -1;
      return sign * (compare(keyOf(a, sort), keyOf(b, sort)) || compare(a.id, b.id));
    })
    .map((entity) => entity.id);
}

/** Every page of the index, following nextCursor; checks the total on each. */
async function walk(filter: Filter, sort: EntityIndexSort, order: EntityIndexOrder, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const parameters = new URLSearchParams({
      ...filter,
      sort,
      order,
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
    });
    const response = await server.request(`/api/v2/entity-index?${parameters.toString()}`);
    expect(response.status, response.text).toBe(200);
    const page = entityIndexResponseSchema.parse(response.body);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    total ??= page.total;
    expect(page.total).toBe(total);
    ids.push(...page.data.map((row) => row.entityId));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return { ids, total };
}

beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded' });
  db = server.app.services.db;
  ASSIGNEES.push(server.account.username);
  await generate(160);
});

afterAll(async () => {
  await server.close();
});

const FILTERS: Filter[] = [
  {},
  { type: 'legal-entities' },
  { type: 'natural-persons' },
  { kycStatus: 'Pending' },
  { riskLevel: 'High' },
  { country: 'DE' },
  { assignee: 'me' },
  { assignee: 'none' },
  { assignee: 'bob' },
  { q: 'ETOI' },
  { q: 'alpha l' },
  { q: 'CRM-17' },
  { type: 'natural-persons', riskLevel: 'Low', country: 'GB' },
  { kycStatus: 'Accepted', assignee: 'none', q: 'a' },
  // Several filters at once, where the matches are few or spread over many of 0036's groups.
  { type: 'legal-entities', kycStatus: 'Review', riskLevel: 'High', country: 'FR' },
  { kycStatus: 'Pending', riskLevel: 'Medium' },
  { riskLevel: 'High', assignee: 'none' },
  { type: 'natural-persons', kycStatus: 'New' },
  { type: 'legal-entities', assignee: 'me' },
  { country: 'FR', kycStatus: 'Rejected', assignee: 'bob' },
  { type: 'natural-persons', riskLevel: 'High', q: 'CRM-17' },
];

describe(`GET /api/v2/entity-index (${testEngine})`, () => {
  it.each(SORTS_AND_ORDERS)(
    'sort=%s order=%s agrees with a brute-force oracle under every filter, page by page',
    async (sort, order) => {
      for (const filter of FILTERS) {
        const expected = oracle(filter, sort, order);
        const { ids, total } = await walk(filter, sort, order, 40);
        expect(ids, JSON.stringify(filter)).toEqual(expected);
        expect(total, JSON.stringify(filter)).toBe(expected.length);
      }
    },
  );

  it('lists persons with an empty country and with none, as the oracle does, both without one', async () => {
    for (const country of ['', null]) {
      const person = generated.find(
        (row) => row.kind === 'person' && row.countryWritten === country,
      );
      if (!person) throw new Error(`no person with country ${String(country)} generated`);
      const filter = { type: 'natural-persons', riskLevel: person.riskLevel };
      const { ids, total } = await walk(filter, 'created', 'desc', 5);
      expect(ids).toContain(person.id);
      expect(ids).toEqual(oracle(filter, 'created', 'desc'));
      expect(total).toBe(ids.length);
      const byId = await server.request(`/api/v2/entity-index?q=${person.id}`);
      expect(entityIndexResponseSchema.parse(byId.body).data[0]?.country).toBeNull();
    }
  });

  it('finds an entity by its ID and answers its row as the oracle knows it', async () => {
    const entity = generated.find((row) => row.documents > 0 && row.kind === 'person');
    if (!entity) throw new Error('no person with documents generated');
    const response = await server.request(`/api/v2/entity-index?q=${entity.id}`);
    const page = entityIndexResponseSchema.parse(response.body);
    expect(page.total).toBe(1);
    expect(page.data[0]).toEqual({
      entityId: entity.id,
      type: 'Natural Person',
      name: entity.name,
      country: entity.country,
      kycStatus: entity.kycStatus,
      riskLevel: entity.riskLevel,
      nextKYCReview: entity.nextReview,
      assignee: entity.assignee,
      documents: 2,
      createdAt: entity.createdAt,
    });
  });

  it('follows a rename: the name order is kept by the database', async () => {
    const entity = generated.find((row) => row.kind === 'legal');
    if (!entity) throw new Error('no legal entity generated');
    await db
      .updateTable('legal_entities')
      .set(withLegalEntitySearchColumnsOnly('Aaaa First Ltd'))
      .where('entity_id', '=', entity.id)
      .execute();
    const page = entityIndexResponseSchema.parse(
      (await server.request('/api/v2/entity-index?limit=1')).body,
    );
    expect(page.data[0]?.entityId).toBe(entity.id);
  });

  it('keeps every total through changes of status, risk, assignee and country, and a deletion', async () => {
    const [legal, other] = generated.filter((row) => row.kind === 'legal');
    const [person] = generated.filter((row) => row.kind === 'person');
    if (!legal || !other || !person) throw new Error('too few entities generated');
    const change = async (
      entity: Generated,
      set: { kyc_status?: string; risk_level?: string; assignee?: string | null },
    ) => {
      await db.updateTable('entities').set(set).where('id', '=', entity.id).execute();
      entity.kycStatus = set.kyc_status ?? entity.kycStatus;
      entity.riskLevel = set.risk_level ?? entity.riskLevel;
      if (set.assignee !== undefined) entity.assignee = set.assignee;
    };
    await change(legal, { kyc_status: 'Rejected', risk_level: 'High', assignee: null });
    await change(other, { assignee: 'bob' });
    await change(person, { assignee: null, kyc_status: 'Pending' });
    // The country reaches entities through 0011's trigger on legal_entities.
    await db
      .updateTable('legal_entities')
      .set({ country: 'ES' })
      .where('entity_id', '=', other.id)
      .execute();
    other.country = 'ES';
    // An external ID that is also the start of names: counted once, by name or by ID.
    const alpha = generated.find((row) => row.nameKey.startsWith('alpha'));
    if (!alpha) throw new Error('no Alpha generated');
    await db
      .updateTable('entities')
      .set({ external_id: 'ALPHA', external_id_folded: 'alpha' })
      .where('id', '=', alpha.id)
      .execute();
    alpha.externalId = 'ALPHA';
    const bare = randomUUID();
    await db
      .insertInto('entities')
      .values(
        withEntitySearchColumns(
          {
            id: bare,
            kind: 'legal',
            created_at: '2026-01-01T00:00:00.000Z',
            external_id: null,
            kyc_status: 'Escalated',
            risk_level: 'Low',
            last_update: '2026-01-01T00:00:00.000Z',
            next_kyc_review: null,
            tags: '[]',
          },
          null,
        ),
      )
      .execute();
    const totalOf = async (filter: Filter) =>
      entityIndexResponseSchema.parse(
        (
          await server.request(
            `/api/v2/entity-index?${new URLSearchParams({ ...filter, limit: '1' }).toString()}`,
          )
        ).body,
      ).total;
    expect(await totalOf({})).toBe(generated.length + 1);
    expect(await totalOf({ kycStatus: 'Escalated', type: 'legal-entities' })).toBe(1);
    await db.deleteFrom('entities').where('id', '=', bare).execute();
    for (const filter of [
      ...FILTERS,
      { country: 'ES' },
      { kycStatus: 'Rejected', riskLevel: 'High' },
      { type: 'legal-entities', assignee: 'none', country: 'ES' },
      { type: 'natural-persons', kycStatus: 'Pending', assignee: 'none' },
      { kycStatus: 'Escalated' },
      { q: 'ALPHA' },
      { q: 'alpha', kycStatus: alpha.kycStatus },
    ]) {
      expect(await totalOf(filter), JSON.stringify(filter)).toBe(
        oracle(filter, 'name', 'asc').length,
      );
    }
  });

  it('counts and lists alike an entity written straight into the database with an empty assignee and country', async () => {
    const id = randomUUID();
    await db
      .insertInto('entities')
      .values({
        ...withEntitySearchColumns(
          {
            id,
            kind: 'legal',
            created_at: '2026-01-01T00:00:00.000Z',
            external_id: null,
            kyc_status: 'Pending',
            risk_level: 'High',
            last_update: '2026-01-01T00:00:00.000Z',
            next_kyc_review: null,
            tags: '[]',
          },
          null,
        ),
        assignee: '',
        country: '',
      })
      .execute();
    const [assigned] = generated.filter((row) => row.assignee === 'bob');
    if (!assigned) throw new Error('no entity assigned to bob generated');
    await db.updateTable('entities').set({ assignee: '' }).where('id', '=', assigned.id).execute();
    const cases: [Filter, string[]][] = [
      [{ assignee: 'none' }, [id, assigned.id]],
      [{ assignee: 'none', type: 'legal-entities', kycStatus: 'Pending', riskLevel: 'High' }, [id]],
      [{ assignee: 'none', kycStatus: assigned.kycStatus }, [assigned.id]],
      [{}, [id, assigned.id]],
    ];
    for (const [filter, found] of cases) {
      const { ids, total } = await walk(filter, 'name', 'asc', 40);
      expect({ filter, total }).toEqual({ filter, total: ids.length });
      expect(ids).toEqual(expect.arrayContaining(found));
    }
    const row = entityIndexResponseSchema
      .parse((await server.request(`/api/v2/entity-index?q=${id}`)).body)
      .data.at(0);
    expect(row).toMatchObject({ entityId: id, assignee: null, country: null });
    await db
      .updateTable('entities')
      .set({ assignee: 'bob' })
      .where('id', '=', assigned.id)
      .execute();
    await db.deleteFrom('entities').where('id', '=', id).execute();
  });

  it.each([
    ['sort=size', 'sort'],
    ['order=up', 'order'],
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['country=XX', 'country'],
    ['kycStatus=Maybe', 'kycStatus'],
    ['type=robots', 'type'],
    ['q=', 'q'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['format=xml', 'format'],
    ['cursor=nonsense', 'cursor'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const response = await server.request(`/api/v2/entity-index?${query}`);
    expect(response.status).toBe(400);
    const body = errorEnvelopeSchema.parse(response.body);
    expect(body.errors?.map((error) => error.field)).toContain(field);
  });

  it('refuses an unknown parameter, and a cursor made for another sort', async () => {
    const unknown = await server.request('/api/v2/entity-index?colour=red');
    expect(unknown.status).toBe(400);
    expect(errorEnvelopeSchema.parse(unknown.body).message).toContain('colour');
    const first = entityIndexResponseSchema.parse(
      (await server.request('/api/v2/entity-index?sort=name&limit=2')).body,
    );
    const other = await server.request(
      `/api/v2/entity-index?sort=created&cursor=${first.nextCursor ?? ''}`,
    );
    expect(other.status).toBe(400);
  });

  it('answers a page asked again from what it kept, until the entity data changes', async () => {
    const kept = createEntityIndexKept(db);
    const caller = { username: server.account.username, entityDataVersion: undefined };
    const query = {
      type: 'all',
      sort: 'created',
      order: 'desc',
      limit: 3,
      format: 'json',
    } as const;
    const first = await entityIndexPage(db, kept, query, caller);
    expect(await entityIndexPage(db, kept, query, caller)).toBe(first);
    // Another limit is another page, not the kept one cut short.
    expect((await entityIndexPage(db, kept, { ...query, limit: 2 }, caller)).data).toHaveLength(2);

    const newest = first.data[0];
    if (!newest) throw new Error('the index answered no rows');
    const riskLevel = newest.riskLevel === 'High' ? 'Low' : 'High';
    await db
      .updateTable('entities')
      .set({ risk_level: riskLevel })
      .where('id', '=', newest.entityId)
      .execute();
    const after = await entityIndexPage(db, kept, query, caller);
    expect(after).not.toBe(first);
    expect(after.data[0]).toEqual({ ...newest, riskLevel });
  });

  it('records each read as entity.index with its query', async () => {
    await server.request('/api/v2/entity-index?riskLevel=High&sort=status');
    const event = await db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'entity.index')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(event.actor).toBe(server.account.username);
    expect(JSON.parse(event.detail)).toMatchObject({
      query: { riskLevel: 'High', sort: 'status' },
    });
  });
});

describe.runIf(testEngine === 'sqlite')('entity index plans on SQLite', () => {
  const named = FILTERS.filter((filter) => filter.q !== undefined);
  const criteriaFor = (filter: Filter) =>
    criteriaOf(entityIndexFilterSchema.parse(filter), server.account.username);
  let kept: EntityIndexKept;
  beforeAll(() => {
    kept = createEntityIndexKept(db);
  });

  /** Every row of the filter through the repository, in pages of 7 read by `plan`. */
  async function readAll(
    filter: Filter,
    sort: EntityIndexSort,
    order: EntityIndexOrder,
    plan: EntityIndexPlan,
  ) {
    const criteria = criteriaFor(filter);
    const repository = entityIndexRepository(db);
    const ids: string[] = [];
    let after: EntityIndexKey | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const rows = (await repository
        .pageQuery(criteria, sort, order, after, 7, plan)
        .execute()) as EntityIndexDbRow[];
      ids.push(...rows.map((row) => row.id));
      const last = rows.at(-1);
      if (rows.length < 7 || !last) break;
      after = { value: last.sort_value, id: last.id };
    }
    return ids;
  }

  it.each(SORTS_AND_ORDERS)(
    'sort=%s order=%s: a name start read by its range or in the order agrees with the oracle',
    async (sort, order) => {
      for (const filter of named) {
        const criteria = criteriaFor(filter);
        const { lead } = (await entityIndexRepository(db).planOf(
          criteria,
          sort,
          7,
          await kept.lead(criteria),
        )) ?? { lead: undefined };
        for (const drive of ['name', 'order'] as const) {
          expect(
            await readAll(filter, sort, order, { lead, drive }),
            `${JSON.stringify(filter)} by ${drive}`,
          ).toEqual(oracle(filter, sort, order));
        }
      }
    },
  );

  it('reads a name range that meets the walk sooner, and walks the order past a wider one', async () => {
    const repository = entityIndexRepository(db);
    const planOf = async (filter: Filter, sort: EntityIndexSort, lead?: EntityIndexLead) => {
      const criteria = criteriaFor(filter);
      return repository.planOf(criteria, sort, 1, lead ?? (await kept.lead(criteria)));
    };
    // An external ID matches a name range far narrower than where it meets the walk of all.
    const narrow = criteriaFor({ q: 'CRM-17' });
    const all = await kept.lead(narrow);
    expect(await repository.total(narrow, undefined)).toBeLessThan(
      Math.sqrt(NAME_ENTRIES_PER_ROW * (all?.matching ?? 0)),
    );
    expect(await planOf({ q: 'CRM-17' }, 'created')).toEqual({ drive: 'name' });
    // A page of one walks about (what the lead matches) / names rows, each worth
    // NAME_ENTRIES_PER_ROW names: the range is read while names² < NAME_ENTRIES_PER_ROW × matching.
    const wide = { q: 'a' };
    const names = await repository.total(criteriaFor(wide), undefined);
    const meetsAt = Math.floor((names * names) / NAME_ENTRIES_PER_ROW);
    expect(await planOf(wide, 'created', { matching: meetsAt + 1 })).toEqual({ drive: 'name' });
    expect(await planOf(wide, 'created', { matching: meetsAt })).toEqual({ drive: 'order' });
    // Sorted by name, the range is the order.
    expect(await planOf(wide, 'name')).toEqual({ drive: 'name' });
    expect(await planOf({ ...wide, country: 'DE' }, 'name')).toEqual({
      lead: 'country',
      drive: 'name',
    });
  });
});

/** The search columns of a renamed company, as a writer stores them. */
function withLegalEntitySearchColumnsOnly(companyName: string) {
  const { company_name, company_name_folded } = withLegalEntitySearchColumns({
    entity_id: '',
    company_name: companyName,
    registration_number: 'X',
    date_of_incorporation: null,
    duns: '',
    glei: '',
    company_phone: null,
    company_phone_digits: '',
    email: '',
    primary_address: '',
    city: '',
    state_province: '',
    country: 'GB',
    postal_code: '',
  });
  return { company_name, company_name_folded };
}
