import type { Locator, Page } from '@playwright/test';
import { apiData, demoToken } from './api.ts';
import { expect, signIn, test } from './fixtures.ts';

// Tokens live 110 s: the "session ends soon" notice (the last two minutes) is up from sign-in on.
test.use({ serverEnv: { TOKEN_TTL_SECONDS: '110' } });

const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box`);
  return box;
}

/** Elements wider than the viewport, for a failure message that names the culprit. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((element) => {
        const rect = element.getBoundingClientRect();
        return rect.right > width + 0.5 && rect.width > 0 && !element.closest('[data-scroll-x]');
      })
      .slice(0, 5)
      .map(
        (element) => `${element.tagName.toLowerCase()}.${String(element.getAttribute('class'))}`,
      );
  });
}

async function expectNoHorizontalScroll(page: Page) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, (await overflowing(page)).join('\n')).toBeLessThanOrEqual(PHONE.width);
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width} px the session notice and toasts leave the form's buttons, the name and Sign out free`, async ({
    page,
    kyc,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, kyc, '/legal-entities/new');
    const notice = page.getByRole('alert').filter({ hasText: 'Your session ends soon' });
    await expect(notice).toBeVisible({ timeout: 20_000 });

    // At the bottom of the form, where the buttons are: the page made room for the bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const noticeBox = await boxOf(notice);
    for (const name of ['Create legal entity', 'Discard draft']) {
      const button = page.getByRole('button', { name });
      await expect(button).toBeInViewport();
      expect(overlaps(await boxOf(button), noticeBox), `${name} under the notice`).toBe(false);
    }

    // A toast ("Draft discarded") opens clear of the header's name and Sign out.
    await page.getByRole('textbox', { name: 'Company name' }).fill('Toast Test Ltd');
    await page.getByRole('button', { name: 'Discard draft' }).click();
    // The confirmation opens in a popover: wait for it rather than glance (a glance raced it in CI).
    await page
      .getByRole('dialog', { name: 'Discard this draft?' })
      .getByRole('button', { name: /discard/i })
      .click();
    const toast = page.locator('.mantine-Notification-root').first();
    await expect(toast).toBeVisible();
    const signOut = page.getByRole('button', { name: 'Sign out' });
    expect(overlaps(await boxOf(toast), await boxOf(signOut))).toBe(false);
    const name = page.getByText('Signed in as', { exact: false }).locator('..');
    if (await name.isVisible()) {
      expect(overlaps(await boxOf(toast), await boxOf(name))).toBe(false);
    }
    expect(overlaps(await boxOf(toast), await boxOf(page.locator('header')))).toBe(false);
  });
}

test('at 390 px no page is wider than the phone and status badges show their whole word', async ({
  page,
  kyc,
  request,
}) => {
  test.slow();
  const [person] = await apiData<{ id: string }[]>(
    request,
    kyc,
    '/api/v2/entities?type=natural-persons&limit=1',
  );
  const [company] = await apiData<{ id: string }[]>(
    request,
    kyc,
    '/api/v2/entities?type=legal-entities&limit=1',
  );
  if (!person || !company) throw new Error('the demo data has no person or company');
  await page.setViewportSize(PHONE);
  await signIn(page, kyc, '/entities');
  const pages = [
    ['/entities', 'Entities'],
    [`/entities/${company.id}`, null],
    [`/entities/people/${person.id}`, null],
    ['/reviews', 'Reviews'],
    ['/search', 'Search'],
    ['/legal-entities/new', 'Onboard a legal entity'],
  ] as const;
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(
      page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) }),
    ).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoHorizontalScroll(page);
  }
  await page.goto('/entities');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Next' })).toBeInViewport({ ratio: 1 });

  await page.goto('/reviews?due=all');
  const badges = page.getByRole('table').locator('.mantine-Badge-label');
  await expect(badges.first()).toBeVisible();
  const clipped = await badges.evaluateAll((labels) =>
    labels
      .filter((label) => label.scrollWidth > label.clientWidth + 0.5)
      .map((label) => label.textContent),
  );
  expect(clipped).toEqual([]);
  // Whole on screen, not behind a sideways scroll: status badges and the risk column.
  const cutOff = await page
    .getByRole('table')
    .locator('tbody td:nth-child(-n+4)')
    .evaluateAll(
      (cells, width) =>
        cells
          .filter((cell) => cell.getBoundingClientRect().right > width)
          .map((cell) => cell.textContent),
      PHONE.width,
    );
  expect(cutOff).toEqual([]);
});

test('each page has its own title, and opening a person writes no failed lookup', async ({
  page,
  kyc,
  request,
}) => {
  test.slow();
  await page.goto('/login');
  await expect(page).toHaveTitle('Sign in — KYC Desk');
  await signIn(page, kyc, '/entities');
  await expect(page).toHaveTitle('Entities — KYC Desk');

  // Open a person from the list, as a reviewer does: the link carries the type.
  await page.goto('/entities?type=natural-persons');
  const personLink = page.getByRole('table', { name: 'Entities' }).getByRole('link').first();
  const personName = (await personLink.textContent()) ?? '';
  const legalLookups: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/v2/entities/legal-entities/')) legalLookups.push(sent.url());
  });
  await personLink.click();
  await expect(page).toHaveURL(/\/entities\/people\//);
  await expect(page.getByRole('heading', { level: 1, name: personName })).toBeVisible();
  await expect(page).toHaveTitle(`${personName} — KYC Desk`);
  const personId = decodeURIComponent(page.url().split('/').at(-1) ?? '');
  expect(legalLookups.filter((url) => url.includes(personId))).toEqual([]);

  const token = await demoToken(request, kyc);
  const response = await request.get(
    `${kyc.baseUrl}/api/v2/entities/${personId}/audit-events?limit=500`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  const { data: events } = (await response.json()) as {
    data: { action: string; outcome: string }[];
  };
  expect(events.length).toBeGreaterThan(0);
  expect(events.filter((event) => event.outcome !== 'success')).toEqual([]);

  for (const [path, title] of [
    ['/reviews', 'Reviews — KYC Desk'],
    ['/search', 'Search — KYC Desk'],
    ['/legal-entities/new', 'Onboard a legal entity — KYC Desk'],
    ['/no-such-page', 'Page not found — KYC Desk'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
});
