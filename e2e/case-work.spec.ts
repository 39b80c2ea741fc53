import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import type { COUNTRY_CODES } from '../contract/countries.ts';
import { legalEntityPayload } from '../server/testing/test-payloads.ts';
import { createAccount, demoToken } from './api.ts';
import { expect, signIn, test, type KycServer } from './fixtures.ts';
import { recordOutcome } from './review-actions.ts';

/** Ten overdue Low-risk companies in a country the demo data has none of: a queue of their own. */
async function createOverdueQueue(
  request: APIRequestContext,
  kyc: KycServer,
  country: (typeof COUNTRY_CODES)[number],
): Promise<string[]> {
  const token = await demoToken(request, kyc);
  const ids: string[] = [];
  for (let index = 0; index < 10; index += 1) {
    const payload = legalEntityPayload({
      riskLevel: 'Low',
      corporateInformation: { country, postalCode: '101' },
      corporateVerifications: [
        {
          legalEntityVerification: true,
          verificationStatus: 'Accepted',
          verificationDate: '2020-01-01',
          verificationSource: 'Manual Entry',
          businessStatement: 'Registered trading company.',
          nextReviewDate: `2021-01-${String(index + 1).padStart(2, '0')}`,
          verificationIssues: [],
        },
      ],
    });
    const response = await request.post(`${kyc.baseUrl}/api/v2/entities/legal-entities`, {
      headers: { Authorization: `Bearer ${token}` },
      data: payload,
    });
    expect(response.status(), await response.text()).toBe(201);
    ids.push(((await response.json()) as { data: { id: string } }).data.id);
  }
  return ids;
}

/**
 * Takes the next unassigned entity of the queue and records an outcome for it; the entity's id, or
 * undefined when the queue had none left.
 */
async function takeAndReview(page: Page, queueUrl: string): Promise<string | undefined> {
  await page.goto(queueUrl);
  await expect(page.getByRole('heading', { name: 'Reviews', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Take next unassigned' }).click();
  const nothing = page.getByRole('alert').filter({ hasText: 'Nothing taken' });
  const taken = page.getByRole('button', { name: 'Record outcome' });
  await expect(nothing.or(taken)).toBeVisible();
  if (await nothing.isVisible()) return undefined;
  const id = /\/entities\/(?:legal-entities\/)?([^/?]+)/.exec(new URL(page.url()).pathname)?.[1];
  await expect(page.getByRole('group', { name: 'Assignment' })).toContainText('Assigned to you');
  await recordOutcome(page, 'Accepted');
  return id;
}

test('two reviewers split a queue of ten: each takes next until it is empty, and every entity is reviewed once', async ({
  browser,
  kyc,
  request,
}) => {
  // Two browsers and twenty page loads on a shared two-core machine.
  test.slow();
  const created = await createOverdueQueue(request, kyc, 'IS');
  const queueUrl = '/reviews?due=overdue&country=IS&assignee=all';
  const second = createAccount(kyc, `split-${Date.now().toString(36)}`);

  const contextA = await browser.newContext({ baseURL: kyc.baseUrl });
  const pageA = await contextA.newPage();
  await signIn(pageA, kyc, queueUrl);
  const contextB = await browser.newContext({ baseURL: kyc.baseUrl });
  const pageB = await contextB.newPage();
  await pageB.goto('/login?next=%2Freviews');
  await pageB.getByLabel('Username').fill(second.username);
  await pageB.getByLabel('Password', { exact: true }).fill(second.password);
  await pageB.getByRole('button', { name: 'Sign in' }).click();
  await expect(pageB.getByRole('heading', { name: 'Reviews', level: 1 })).toBeVisible();

  // Turn by turn until both find the queue empty.
  const reviewed: Record<'a' | 'b', string[]> = { a: [], b: [] };
  const done = { a: false, b: false };
  while (!done.a || !done.b) {
    for (const [who, page] of [
      ['a', pageA],
      ['b', pageB],
    ] as const) {
      if (done[who]) continue;
      const id = await takeAndReview(page, queueUrl);
      if (id === undefined) done[who] = true;
      else reviewed[who].push(id);
    }
  }
  await contextA.close();
  await contextB.close();

  const all = [...reviewed.a, ...reviewed.b];
  expect(new Set(all).size).toBe(all.length);
  expect([...all].sort()).toEqual([...created].sort());
  expect(reviewed.a.length).toBeGreaterThan(0);
  expect(reviewed.b.length).toBeGreaterThan(0);
  // Reviewed once each: the created verification and exactly one recorded outcome.
  const token = await demoToken(request, kyc);
  for (const id of created) {
    const response = await request.get(`${kyc.baseUrl}/api/v2/entities/legal-entities/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const entity = ((await response.json()) as { data: { corporateVerifications: unknown[] } })
      .data;
    expect(entity.corporateVerifications, id).toHaveLength(2);
  }
});

test('the Entities page filters, sorts and counts, keeps it all on reload, and exports what it shows', async ({
  page,
  kyc,
}) => {
  // Several index queries, a reload and a download.
  test.slow();
  await signIn(page, kyc, '/overview');
  // The overview's counts are links to the filtered list.
  const lowRisk = page.getByRole('link', { name: /^Low: [\d,]+$/ });
  const lowCount = Number(((await lowRisk.textContent()) ?? '').replace(/,/g, ''));
  await lowRisk.click();
  await expect(page).toHaveURL(/\/entities\?.*riskLevel=Low/);
  const range = page.getByText(/^\d[\d,]*–\d[\d,]* of [\d,]+$|^0 of 0$/);
  await expect(range).toHaveText(new RegExp(` of ${lowCount.toLocaleString('en')}$`));

  await page.getByRole('combobox', { name: 'Type' }).selectOption('legal-entities');
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('name:desc');
  await expect(page).toHaveURL(/type=legal-entities/);
  const table = page.getByRole('table', { name: 'Entities' });
  await expect(range).not.toHaveText(new RegExp(` of ${lowCount.toLocaleString('en')}$`));
  const total = Number(
    /of ([\d,]+)$/.exec((await range.textContent()) ?? '')?.[1]?.replace(/,/g, ''),
  );
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(lowCount);
  await expect(range).toHaveText(`1–${Math.min(25, total)} of ${total.toLocaleString('en')}`);
  await expect(page).toHaveURL(/order=desc/);
  // The previous page stays on screen until the new order arrives: wait for it.
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  await expect
    .poll(async () => {
      const names = await table.getByRole('link').allTextContents();
      return collator.compare(names[0] ?? '', names.at(-1) ?? '');
    })
    .toBeGreaterThan(0);

  // The address keeps the view: a reload shows the same filter, order and total.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue('legal-entities');
  await expect(page.getByRole('combobox', { name: 'Risk level' })).toHaveValue('Low');
  await expect(range).toHaveText(`1–${Math.min(25, total)} of ${total.toLocaleString('en')}`);

  // Export CSV: one row per matching entity, all of them Low-risk legal entities.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  expect(lines[0]).toContain('entityId,type,name');
  expect(lines).toHaveLength(total + 1);
  for (const line of lines.slice(1)) {
    expect(line).toContain('Legal Entity');
    expect(line).toContain('Low');
  }
});

test('a reviewer assigns two selected queue rows at once; the overview counts them and links to them all', async ({
  page,
  kyc,
  request,
}) => {
  await signIn(page, kyc, '/reviews?due=overdue&assignee=none');
  const table = page.getByRole('table', { name: /Overdue reviews/ });
  const boxes = table.getByRole('checkbox', { name: /^Select (?!every row shown$)/ });
  await expect(boxes.first()).toBeVisible();
  const names = [
    ((await boxes.nth(0).getAttribute('aria-label')) ?? '').replace(/^Select /, ''),
    ((await boxes.nth(1).getAttribute('aria-label')) ?? '').replace(/^Select /, ''),
  ];
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  const bulk = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bulk.getByRole('status')).toHaveText('2 entities selected');
  await bulk.getByRole('button', { name: 'Assign selected to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign 2 entities' });
  await dialog.getByRole('combobox', { name: /Reviewer/ }).click();
  await page
    .getByRole('option', { name: new RegExp(`\\(${kyc.demo.username}\\)$|^${kyc.demo.username}$`) })
    .click();
  await dialog.getByRole('button', { name: 'Assign 2 entities' }).click();
  const outcomes = dialog.getByRole('list', { name: 'Outcome per entity' });
  for (const name of names) await expect(outcomes).toContainText(name);
  await expect(outcomes.getByText('Assigned')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Now the demo reviewer's: on "Assigned to me", gone from "Unassigned".
  await page.goto('/reviews?due=overdue&assignee=me');
  const mine = page.getByRole('table', { name: /Overdue reviews/ });
  for (const name of names) await expect(mine.getByRole('link', { name })).toBeVisible();

  // An entity without a review date is the reviewer's too: counted, and on the page the count opens.
  const headers = { Authorization: `Bearer ${await demoToken(request, kyc)}` };
  const undated = await request.get(
    `${kyc.baseUrl}/api/v2/reviews?due=undated&assignee=none&limit=1`,
    { headers },
  );
  const [item] = ((await undated.json()) as { data: { entityId: string }[] }).data;
  if (!item) throw new Error('the demo data has no undated entity left unassigned');
  const assigned = await request.put(`${kyc.baseUrl}/api/v2/entities/${item.entityId}/assignee`, {
    headers,
    data: { username: kyc.demo.username },
  });
  expect(assigned.status()).toBe(200);
  await page.goto('/overview');
  const card = page.getByRole('link', { name: /^Assigned to me: [\d,]+$/ });
  const count = Number(((await card.getAttribute('aria-label')) ?? '').replace(/\D/g, ''));
  expect(count).toBeGreaterThanOrEqual(3);
  await card.click();
  await expect(page).toHaveURL(/\/entities\?(?=.*\bassignee=me\b)/);
  await expect(page.getByText(/^\d[\d,]*–\d[\d,]* of [\d,]+$|^0 of 0$/)).toHaveText(
    new RegExp(` of ${count.toLocaleString('en')}$`),
  );
});
