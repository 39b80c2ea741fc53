import { errorEnvelopeSchema } from '../../contract/common.ts';
import {
  reviewQueueQuerySchema,
  reviewQueueResponseSchema,
  type ReviewQueuePage,
} from '../../contract/reviews.ts';
import type { Db } from '../db/database.ts';
import { insertLegalEntity, insertNaturalPerson } from '../testing/fixtures.ts';
import { startTestServer, testEngine, type TestServer } from '../testing/harness.ts';
import { queryPlanOf } from '../testing/query-plan.ts';
import { reviewsRepository } from './repository.ts';
import { countedWindows, createReviewQueueKept, reviewQueuePage } from './service.ts';

let server: TestServer;
let db: Db;
/** The server's clock; tests move it. */
let clock = new Date('2026-06-10T12:00:00.000Z');

async function queue(query: string): Promise<ReviewQueuePage> {
  const response = await server.request(`/api/v2/reviews${query}`);
  expect(response.status, response.text).toBe(200);
  return reviewQueueResponseSchema.parse(response.body);
}

async function expectBadParameter(query: string, field: string) {
  const response = await server.request(`/api/v2/reviews${query}`);
  expect(response.status).toBe(400);
  const body = errorEnvelopeSchema.parse(response.body);
  expect(body.message).toContain(field);
  expect(body.errors?.map((error) => error.field)).toContain(field);
}

const datesOf = (page: ReviewQueuePage) => page.data.map((item) => item.nextReviewDate);

interface Reviewed {
  date: string;
  status?: string;
  risk?: string;
  country?: string;
  name?: string;
}

/** A legal entity due for review on `date` (its two linked people have no review date). */
async function legalEntityDue(reviewed: Reviewed): Promise<string> {
  const { legalEntityId } = await insertLegalEntity(db, {
    entity: {
      next_kyc_review: reviewed.date,
      kyc_status: reviewed.status ?? 'Accepted',
      risk_level: reviewed.risk ?? 'Low',
    },
    legalEntity: {
      country: reviewed.country ?? 'GB',
      ...(reviewed.name ? { company_name: reviewed.name } : {}),
    },
  });
  return legalEntityId;
}

async function personDue(
  reviewed: Reviewed & { first: string; middle?: string; last: string },
): Promise<string> {
  const id = await insertNaturalPerson(db, {
    first_name: reviewed.first,
    middle_name: reviewed.middle ?? null,
    last_name: reviewed.last,
    country_code: reviewed.country ?? 'GB',
  });
  await setReview(id, reviewed.date, {
    kyc_status: reviewed.status ?? 'Pending',
    risk_level: reviewed.risk ?? 'Medium',
  });
  return id;
}

/** What a recorded outcome does to an entity's row (the decisions feature writes it so). */
async function setReview(
  id: string,
  date: string | null,
  other: { kyc_status?: string; risk_level?: string } = {},
) {
  await db
    .updateTable('entities')
    .set({ next_kyc_review: date, ...other })
    .where('id', '=', id)
    .execute();
}

async function removeAll() {
  await db.updateTable('entities').set({ next_kyc_review: null }).execute();
}

beforeAll(async () => {
  server = await startTestServer({ mode: 'embedded', now: () => clock });
  db = server.app.services.db;
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  clock = new Date('2026-06-10T12:00:00.000Z');
  await removeAll();
});

describe(`GET /api/v2/reviews (${testEngine})`, () => {
  it('puts each date in its window, at the edges, with the counts', async () => {
    const dates = [
      '2026-07-11', // 31 days ahead: only in all
      '2026-06-10', // due today
      '2020-01-01',
      '2026-06-17', // exactly 7 days ahead
      '2026-06-09', // overdue by one day
      '2026-07-10', // exactly 30 days ahead
      '2026-06-18', // 8 days ahead
    ];
    for (const date of dates) await legalEntityDue({ date });

    const overdue = await queue('?due=overdue');
    expect(datesOf(overdue)).toEqual(['2020-01-01', '2026-06-09']);
    expect(overdue.counts).toMatchObject({ overdue: 2, due7: 2, due30: 4, all: 7 });
    expect(overdue.today).toBe('2026-06-10');
    expect(overdue.nextCursor).toBeNull();

    expect(datesOf(await queue('?due=7d'))).toEqual(['2026-06-10', '2026-06-17']);
    expect(datesOf(await queue('?due=30d'))).toEqual([
      '2026-06-10',
      '2026-06-17',
      '2026-06-18',
      '2026-07-10',
    ]);
    expect(datesOf(await queue('?due=all'))).toEqual([...dates].sort());
    // overdue is the default window
    expect(datesOf(await queue(''))).toEqual(['2020-01-01', '2026-06-09']);
  });

  it('counts days on the UTC date of the server clock, either side of midnight', async () => {
    await legalEntityDue({ date: '2026-06-10' });
    await legalEntityDue({ date: '2026-06-17' });

    clock = new Date('2026-06-10T23:59:59.999Z');
    let page = await queue('?due=7d');
    expect(page.today).toBe('2026-06-10');
    expect(datesOf(page)).toEqual(['2026-06-10', '2026-06-17']);
    expect(page.counts).toMatchObject({ overdue: 0, due7: 2, due30: 2 });

    clock = new Date('2026-06-11T00:00:00.000Z');
    page = await queue('?due=7d');
    expect(page.today).toBe('2026-06-11');
    expect(datesOf(page)).toEqual(['2026-06-17']);
    expect(page.counts).toMatchObject({ overdue: 1, due7: 1, due30: 1 });
    expect(datesOf(await queue('?due=overdue'))).toEqual(['2026-06-10']);
  });

  it('lists legal entities and natural persons with their names, soonest first then by id', async () => {
    const company = await legalEntityDue({
      date: '2026-06-01',
      name: 'Harbour Lane Ltd',
      country: 'IE',
      status: 'Review',
      risk: 'High',
    });
    const person = await personDue({
      date: '2026-06-01',
      first: 'Ada',
      middle: 'Mary',
      last: 'Byrne',
      country: 'DE',
    });
    const page = await queue('?due=overdue');
    expect(page.data.map((item) => item.entityId)).toEqual([company, person].sort());
    const byId = new Map(page.data.map(({ cursor: _cursor, ...item }) => [item.entityId, item]));
    expect(byId.get(company)).toEqual({
      entityId: company,
      type: 'Legal Entity',
      name: 'Harbour Lane Ltd',
      country: 'IE',
      kycStatus: 'Review',
      riskLevel: 'High',
      nextReviewDate: '2026-06-01',
      assignedUser: null,
    });
    expect(byId.get(person)).toEqual({
      entityId: person,
      type: 'Natural Person',
      // With the middle name, as the person's page and the entity list name them.
      name: 'Ada Mary Byrne',
      country: 'DE',
      kycStatus: 'Pending',
      riskLevel: 'Medium',
      nextReviewDate: '2026-06-01',
      assignedUser: null,
    });
  });

  it('filters by status, country, risk level and type, in the list and the counts', async () => {
    const review = await legalEntityDue({ date: '2026-06-01', status: 'Review' });
    const french = await legalEntityDue({ date: '2026-06-02', country: 'FR' });
    const high = await legalEntityDue({ date: '2026-06-12', risk: 'High' });
    const person = await personDue({ date: '2026-06-20', first: 'Bo', last: 'Li', country: 'FR' });

    const ids = async (query: string) => (await queue(query)).data.map((item) => item.entityId);
    expect(await ids('?due=all&status=Review')).toEqual([review]);
    expect(await ids('?due=all&country=FR')).toEqual([french, person]);
    expect(await ids('?due=all&riskLevel=High')).toEqual([high]);
    expect(await ids('?due=all&type=natural-persons')).toEqual([person]);
    expect(await ids('?due=all&type=legal-entities')).toEqual([review, french, high]);
    expect(await ids('?due=all&type=all')).toEqual([review, french, high, person]);
    expect(await ids('?due=all&country=FR&type=legal-entities')).toEqual([french]);
    expect(await ids('?due=all&country=FR&status=Review')).toEqual([]);

    expect((await queue('?country=FR')).counts).toMatchObject({ overdue: 1, due7: 0, due30: 1 });
    expect((await queue('?riskLevel=High')).counts).toMatchObject({
      overdue: 0,
      due7: 1,
      due30: 1,
    });
    expect((await queue('')).counts).toMatchObject({ overdue: 2, due7: 1, due30: 2 });
  });

  it('counts again after any write to the entities, whoever makes it, and on a new day', async () => {
    const id = await legalEntityDue({ date: '2026-06-09' });
    const dueToday = await legalEntityDue({ date: '2026-06-10' });
    expect((await queue('')).counts).toMatchObject({ overdue: 1, due7: 1 });
    expect((await queue('')).counts).toMatchObject({ overdue: 1, due7: 1 });
    // Written past the API, as another instance or the admin CLI would.
    await setReview(id, '2027-01-01');
    expect((await queue('')).counts).toMatchObject({ overdue: 0, due7: 1 });
    clock = new Date('2026-06-11T00:00:00.000Z');
    expect((await queue('')).counts).toMatchObject({ overdue: 1, due7: 0 });
    expect((await queue('')).data.map((item) => item.entityId)).toEqual([dueToday]);
  });

  it('lists entities without a next review date in the undated window, by id, with their count', async () => {
    const before = (await queue('?due=undated&type=legal-entities')).counts.undated;
    const dated = await legalEntityDue({ date: '2026-06-01' });
    const undated = [
      await legalEntityDue({ date: '2026-06-02', country: 'NZ' }),
      await legalEntityDue({ date: '2026-06-03', country: 'NZ' }),
      await legalEntityDue({ date: '2026-06-04', country: 'NZ' }),
    ];
    for (const id of undated) await setReview(id, null);
    // removeAll left every other entity undated too; a filter keeps to these three.
    const all = await queue('?due=undated&type=legal-entities&country=NZ');
    expect(all.data.map((item) => item.entityId)).toEqual([...undated].sort());
    expect(all.data.every((item) => item.nextReviewDate === null)).toBe(true);
    expect(all.counts).toEqual({
      overdue: 0,
      due7: 0,
      due30: 0,
      undated: 3,
      all: 0,
      responded: 0,
    });
    expect((await queue('?due=undated&type=legal-entities')).counts.undated).toBe(before + 3);
    expect((await queue('?due=all')).data.map((item) => item.entityId)).toEqual([dated]);

    // Paged by id, from any item's cursor.
    const first = await queue('?due=undated&type=legal-entities&country=NZ&limit=2');
    expect(first.data).toHaveLength(2);
    const rest = await queue(
      `?due=undated&type=legal-entities&country=NZ&limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`,
    );
    expect([...first.data, ...rest.data].map((item) => item.entityId)).toEqual([...undated].sort());
    expect(rest.nextCursor).toBeNull();
  });

  it('lists legal entities with a submitted client response in the responded window until reviewed', async () => {
    const answered = await legalEntityDue({ date: '2026-07-01', country: 'IS' });
    const waiting = await legalEntityDue({ date: '2026-07-02', country: 'IS' });
    const request = async (entityId: string, state: 'sent' | 'submitted') => {
      const id = crypto.randomUUID();
      await db
        .insertInto('client_update_requests')
        .values({
          id,
          entity_id: entityId,
          recipient_id: 'person',
          recipient_email: 'client@example.com',
          config_id: 1,
          subject: 'Your details',
          message: 'Please check them.',
          domain: 'portal.kyc-desk.local',
          status: 'sent',
          state,
          requested_by: 'demo',
          created_at: clock.toISOString(),
          sent_at: clock.toISOString(),
          expires_at: '2026-06-17T12:00:00.000Z',
          ...(state === 'submitted' ? { submitted_at: clock.toISOString() } : {}),
        })
        .execute();
      return id;
    };
    const submitted = await request(answered, 'submitted');
    await request(waiting, 'sent');
    const page = await queue('?due=responded&country=IS');
    expect(page.data.map((item) => item.entityId)).toEqual([answered]);
    expect(page.counts.responded).toBe(1);
    // Another window's counts carry it too; a filter applies to it as to the others.
    expect((await queue('?due=overdue&country=IS')).counts.responded).toBe(1);
    expect((await queue('?due=overdue&country=FR')).counts.responded).toBe(0);

    const reviewed = await server.request(
      `/api/v2/entities/legal-entities/${answered}/client-update-requests/${submitted}/review`,
      { method: 'POST' },
    );
    expect(reviewed.status, reviewed.text).toBe(200);
    const after = await queue('?due=responded&country=IS');
    expect(after.data).toEqual([]);
    expect(after.counts.responded).toBe(0);

    // Answered past the API, as another instance's portal would: the page kept above is not.
    await db
      .updateTable('client_update_requests')
      .set({ state: 'submitted', submitted_at: clock.toISOString() })
      .where('entity_id', '=', waiting)
      .execute();
    const answeredElsewhere = await queue('?due=responded&country=IS');
    expect(answeredElsewhere.data.map((item) => item.entityId)).toEqual([waiting]);
    expect(answeredElsewhere.counts.responded).toBe(1);
  });

  it('answers a page asked again from what it kept, until something on it changes', async () => {
    const id = await legalEntityDue({ date: '2026-06-12', country: 'PT' });
    const kept = createReviewQueueKept(db);
    const caller = { username: server.account.username, entityDataVersion: undefined };
    const query = reviewQueueQuerySchema.parse({ due: '7d', country: 'PT' });
    const first = await reviewQueuePage(db, kept, query, clock, caller);
    expect(first.data.map((item) => item.entityId)).toEqual([id]);
    expect(await reviewQueuePage(db, kept, query, clock, caller)).toBe(first);
    await setReview(id, '2026-06-13');
    const after = await reviewQueuePage(db, kept, query, clock, caller);
    expect(after).not.toBe(first);
    expect(after.data[0]?.nextReviewDate).toBe('2026-06-13');
  });

  it('holds an entity written straight into the database with an empty assignee as unassigned', async () => {
    const emptied = await legalEntityDue({ date: '2026-06-01' });
    const assigned = await legalEntityDue({ date: '2026-06-02' });
    await db.updateTable('entities').set({ assignee: '' }).where('id', '=', emptied).execute();
    await db
      .updateTable('entities')
      .set({ assignee: server.account.username })
      .where('id', '=', assigned)
      .execute();
    const unassigned = await queue('?due=all&assignee=none');
    expect(unassigned.data.map((item) => [item.entityId, item.assignedUser])).toEqual([
      [emptied, null],
    ]);
    expect(unassigned.counts.all).toBe(1);
    await db.updateTable('entities').set({ assignee: null }).where('id', '=', assigned).execute();
  });

  it('leaves out entities without a next review date', async () => {
    await legalEntityDue({ date: '2026-06-01' });
    const page = await queue('?due=all');
    // insertLegalEntity's primary contact and director have no review date.
    expect(page.data).toHaveLength(1);
  });

  it('pages by cursor without duplicates or gaps while entities change between pages', async () => {
    const stayIds: string[] = [];
    for (let day = 1; day <= 9; day += 1) {
      stayIds.push(await legalEntityDue({ date: `2026-05-0${day}` }));
    }
    const moving = await legalEntityDue({ date: '2026-05-05' });
    const seen: string[] = [];
    let page = await queue('?due=overdue&limit=3');
    expect(page.data.map((item) => item.entityId)).toEqual(stayIds.slice(0, 3));
    seen.push(...page.data.map((item) => item.entityId));

    // Between pages: one already seen leaves the window (a recorded outcome), two are added
    // behind the cursor, one ahead of it, and one not yet seen moves further ahead.
    await setReview(stayIds[0] ?? '', '2027-01-01');
    const behind = [
      await legalEntityDue({ date: '2026-04-01' }),
      await legalEntityDue({ date: '2026-05-02' }),
    ];
    const ahead = await legalEntityDue({ date: '2026-05-08' });
    await setReview(moving, '2026-05-09');

    while (page.nextCursor !== null) {
      page = await queue(`?due=overdue&limit=3&cursor=${encodeURIComponent(page.nextCursor)}`);
      seen.push(...page.data.map((item) => item.entityId));
    }
    // Offsets would have repeated an item (two added behind) or skipped one (one left); keys do not.
    expect(seen.filter((id) => stayIds.includes(id))).toEqual(stayIds);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(ahead);
    expect(seen).toContain(moving);
    for (const id of behind) expect(seen).not.toContain(id);
    // The next pass from the top finds what was added behind.
    expect((await queue('?due=overdue&limit=3')).data[0]?.entityId).toBe(behind[0]);
  });

  it("continues after any item's own cursor (the entity page's next navigation)", async () => {
    const ids: string[] = [];
    for (const date of ['2026-06-01', '2026-06-02', '2026-06-03']) {
      ids.push(await legalEntityDue({ date }));
    }
    const first = await queue('?due=overdue');
    const second = first.data[1];
    if (!second) throw new Error('expected three items');
    // The reviewer records an outcome: the entity leaves the window, the queue still goes on from it.
    await setReview(second.entityId, '2027-06-01');
    const next = await queue(`?due=overdue&limit=1&cursor=${encodeURIComponent(second.cursor)}`);
    expect(next.data.map((item) => item.entityId)).toEqual([ids[2]]);
    expect(next.nextCursor).toBeNull();
  });

  it('refuses unknown and malformed parameters with 400 naming them', async () => {
    await expectBadParameter('?sort=name', 'sort');
    await expectBadParameter('?due=tomorrow', 'due');
    await expectBadParameter('?status=Done', 'status');
    await expectBadParameter('?country=gb', 'country');
    await expectBadParameter('?country=GBR', 'country');
    await expectBadParameter('?riskLevel=high', 'riskLevel');
    await expectBadParameter('?type=legal', 'type');
    await expectBadParameter('?limit=0', 'limit');
    await expectBadParameter('?limit=101', 'limit');
    await expectBadParameter('?cursor=not-a-cursor', 'cursor');
    const foreign = Buffer.from(JSON.stringify(['2026-02-30', 'x'])).toString('base64url');
    await expectBadParameter(`?cursor=${foreign}`, 'cursor');
  });

  it('needs a token or an API key', async () => {
    const response = await server.request('/api/v2/reviews', { auth: 'none' });
    expect(response.status).toBe(401);
    expect((await server.request('/api/v2/reviews', { auth: 'token' })).status).toBe(200);
  });
});

describe.runIf(testEngine === 'sqlite')('review queue query plans', () => {
  const today = '2026-06-10';
  const windows = countedWindows(today);
  it.each([
    ['no filter', {}, 'entities_review_queue'],
    ['type', { kind: 'person' as const }, 'entities_review_queue_kind'],
    ['status', { kycStatus: 'Review' }, 'entities_review_queue_kyc_status'],
    ['risk level', { riskLevel: 'High' }, 'entities_review_queue_risk_level'],
    ['country', { country: 'GB' }, 'entities_review_queue_country'],
  ])('%s: pages and counts in a covering index, without sorting', async (_name, filter, index) => {
    const reviews = reviewsRepository(db);
    const page = await queryPlanOf(
      db,
      reviews.pageQuery(windows.overdue, filter, { date: '2026-01-01', id: 'a' }, 51),
    );
    expect(page[0]).toContain(`USING COVERING INDEX ${index} `);
    expect(page.join('\n')).not.toContain('TEMP B-TREE');
    const counts = await queryPlanOf(db, reviews.countsQuery(windows, filter));
    const searches = counts.filter((line) => line.includes(' USING '));
    expect(searches, counts.join('\n')).toHaveLength(5);
    for (const line of [...searches.slice(0, 3), searches[4]]) {
      expect(line).toContain(`USING COVERING INDEX ${index} `);
    }
    expect(searches[3]).toContain(`USING COVERING INDEX ${index.replace('queue', 'undated')}`);
  });

  it.each([
    ['no filter', {}, 'entities_review_undated'],
    ['type', { kind: 'person' as const }, 'entities_review_undated_kind'],
    ['status', { kycStatus: 'Review' }, 'entities_review_undated_kyc_status'],
    ['risk level', { riskLevel: 'High' }, 'entities_review_undated_risk_level'],
    ['country', { country: 'GB' }, 'entities_review_undated_country'],
  ])(
    '%s: the undated window pages in a covering index, without sorting',
    async (_name, filter, index) => {
      const page = await queryPlanOf(
        db,
        reviewsRepository(db).pageQuery(windows.undated, filter, { date: '', id: 'a' }, 51),
      );
      expect(page[0]).toContain(`USING COVERING INDEX ${index} `);
      expect(page.join('\n')).not.toContain('TEMP B-TREE');
    },
  );
});

describe('the gateway', () => {
  it('has no review queue: an unknown path', async () => {
    const gateway = await startTestServer({ mode: 'gateway' });
    try {
      const response = await gateway.request('/api/v2/reviews?due=overdue', { auth: 'token' });
      expect(response.status).toBe(404);
    } finally {
      await gateway.close();
    }
  });
});
