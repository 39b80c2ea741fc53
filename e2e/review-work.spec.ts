import { expect, signIn, test } from './fixtures.ts';
import { dismissNotification, recordOutcome } from './review-actions.ts';

test('a reviewer works through three overdue entities from the queue, recording an outcome for each', async ({
  page,
  kyc,
  axe,
}) => {
  // Three outcomes recorded and two axe passes: about 40 s alone on the machine.
  test.slow();
  // Low risk: an accepted outcome applies at once (FOUR_EYES=high holds only High-risk ones).
  // Everyone's queue: earlier specs on this server may have assigned entities to the demo reviewer.
  await signIn(page, kyc, '/reviews?riskLevel=Low&type=legal-entities&assignee=all');
  const overdueTab = page.getByRole('tab', { name: /^Overdue\s*\d+$/ });
  const countOf = async () => Number((await overdueTab.textContent())?.replace(/\D/g, ''));
  const before = await countOf();
  expect(before).toBeGreaterThanOrEqual(3);
  const table = page.getByRole('table', { name: /Overdue reviews/ });
  await table.getByRole('row').nth(1).getByRole('link').click();

  const queueNav = page.getByRole('navigation', { name: 'Review queue' });
  const worked: string[] = [];
  for (let step = 1; step <= 3; step += 1) {
    const name = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
    worked.push(name);
    // The entity's next review, and the verifications' own, show how overdue they are.
    const overdueBadges = page.getByText(/Overdue by \d+ days?/);
    await expect(overdueBadges.first()).toBeVisible();
    const badgesBefore = await overdueBadges.count();
    await recordOutcome(page, 'Accepted', step === 1 ? axe : undefined);
    await dismissNotification(page, 'Outcome recorded');
    // The outcome is the entity's status now and its next review is years away; the earlier
    // verifications keep their own dates.
    await expect(overdueBadges).toHaveCount(badgesBefore - 1);
    if (step === 1) await axe();
    if (step < 3) {
      const next = queueNav.getByRole('link', { name: /^Next in queue: / });
      await next.click();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(name);
    }
  }
  expect(new Set(worked).size).toBe(3);

  // Back in the queue: the three have left the overdue window.
  await queueNav.getByRole('link', { name: 'Back to the queue' }).click();
  await expect(overdueTab).toHaveText(new RegExp(`^Overdue\\s*${String(before - 3)}$`));
  for (const name of worked) await expect(table.getByRole('link', { name })).toHaveCount(0);
});
