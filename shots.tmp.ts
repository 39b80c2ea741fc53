import { chromium, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { startReplayUpstream } from './server/testing/replay-upstream.ts';
const PW = process.argv[2] ?? '';
const base = 'http://127.0.0.1:8093';
const replay = await startReplayUpstream();
const gw = spawn(process.execPath, ['dist-server/main.mjs'], { env: { ...process.env, DATA_DIR: '/tmp/shotgw', PORT: '8094', KYC_UPSTREAM_URL: replay.url, KYC_UPSTREAM_API_KEY: replay.apiKey, KYC_UPSTREAM_API_KEY_HEADER: replay.apiKeyHeader }, stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 3000));
const gwBase = 'http://127.0.0.1:8094';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
async function signIn(page: Page, url: string, user: string, pass: string, next: string) {
  await page.goto(`${url}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(pass);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForTimeout(1500);
}
for (const [w, h] of [[1366, 800], [390, 844]] as const) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  await signIn(page, base, 'demo', PW, '/search?in=people&lastName=er');
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/shots/people-${w}.png`, fullPage: false });
  // request-update dialog on a legal entity
  await page.goto(`${base}/search?companyName=gmbh`);
  await page.waitForTimeout(2000);
  await page.getByRole('table', { name: 'Search results' }).getByRole('link').first().click();
  await page.waitForTimeout(2000);
  const btn = page.getByRole('button', { name: /Request (a client )?update/i }).first();
  if (await btn.count()) { await btn.click(); await page.waitForTimeout(1500); }
  await page.screenshot({ path: `/tmp/shots/update-dialog-${w}.png` });
  await ctx.close();
  const ctx2 = await browser.newContext({ viewport: { width: w, height: h } });
  const p2 = await ctx2.newPage();
  await signIn(p2, gwBase, replay.username, replay.password, '/entities');
  await p2.waitForTimeout(1500);
  await p2.screenshot({ path: `/tmp/shots/vendor-list-${w}.png` });
  await p2.goto(`${gwBase}/entities/123456a-fa38-4893-a88c-bca96ba20cf2`);
  await p2.waitForTimeout(2000);
  await p2.screenshot({ path: `/tmp/shots/vendor-person-${w}.png`, fullPage: true });
  await p2.goto(`${gwBase}/entities/d9c66022-d01b-44f2-8ff4-7d4369923668`);
  await p2.waitForTimeout(2500);
  await p2.screenshot({ path: `/tmp/shots/vendor-company-${w}.png`, fullPage: true });
  await ctx2.close();
}
await browser.close();
gw.kill();
await replay.close();
