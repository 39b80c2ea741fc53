import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { BUILT_SERVER_ARGS, BUILT_SERVER_ENV } from '../server/launch.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface KycServer {
  baseUrl: string;
  dataDir: string;
  demo: { username: string; password: string };
}

interface WorkerFixtures {
  /** Extra environment for this file's server, e.g. `{ TOKEN_TTL_SECONDS: '150' }`. */
  serverEnv: Record<string, string>;
  smtp: { url: string; messages: ReceivedMail[] };
  kyc: KycServer;
}

/** A real SMTP server on loopback that keeps what it receives. */
async function startSmtp(): Promise<{ server: SMTPServer; url: string; messages: ReceivedMail[] }> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `smtp://127.0.0.1:${port}`, messages };
}

/**
 * The server prints the demo password to a terminal only, and its output here is a pipe: a new
 * password is set with the admin CLI, as an operator whose server logs to a file would.
 */
function resetDemoPassword(dataDir: string): KycServer['demo'] {
  const output = execFileSync(
    path.resolve('node_modules/.bin/tsx'),
    ['server/admin/cli.ts', 'account:reset-password', 'demo', '--json'],
    { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as KycServer['demo'];
}

/**
 * Starts `server/main.ts` (the real server, serving the built console) on a fresh DATA_DIR and
 * resolves once it listens; `demo` is the demo account with a password set for the tests, absent
 * in gateway mode.
 */
export async function startServerProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; baseUrl: string; dataDir: string; demo?: KycServer['demo'] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-desk-e2e-'));
  const child = spawn(process.execPath, [...BUILT_SERVER_ARGS], {
    env: {
      ...process.env,
      ...BUILT_SERVER_ENV,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const expectDemo = env.KYC_UPSTREAM_URL === undefined;
  let output = '';
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const baseUrl = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (started || !baseUrl || (expectDemo && !output.includes('Demo data loaded'))) return;
      started = true;
      clearTimeout(timer);
      resolve({
        child,
        baseUrl,
        dataDir,
        ...(expectDemo ? { demo: resetDemoPassword(dataDir) } : {}),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)}:\n${output}`));
    });
  });
}

export const test = base.extend<{ axe: () => Promise<void> }, WorkerFixtures>({
  serverEnv: [{}, { scope: 'worker', option: true }],
  smtp: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const { server, url, messages } = await startSmtp();
      await use({ url, messages });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    { scope: 'worker' },
  ],
  kyc: [
    async ({ serverEnv, smtp }, use) => {
      const { child, baseUrl, dataDir, demo } = await startServerProcess({
        SMTP_URL: smtp.url,
        ...serverEnv,
      });
      if (!demo) throw new Error('the server printed no demo account');
      const server = { baseUrl, dataDir, demo };
      await use(server);
      child.kill('SIGTERM');
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ kyc }, use) => {
    await use(kyc.baseUrl);
  },
  /**
   * Fails on any serious or critical accessibility violation of the page as it is now, in the
   * light and in the dark colour scheme (Mantine styles by the attribute set here), then puts the
   * page's own scheme back.
   */
  axe: async ({ page }, use) => {
    await use(async () => {
      const own = await page.evaluate(() =>
        document.documentElement.getAttribute('data-mantine-color-scheme'),
      );
      const found: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.evaluate((value) => {
          document.documentElement.setAttribute('data-mantine-color-scheme', value);
        }, scheme);
        // Dialogs fade in; judged half-way through, their text fails the contrast check.
        await page.waitForFunction(
          () =>
            document.getAnimations().every((animation) => animation.playState !== 'running') &&
            [...document.querySelectorAll('[role="dialog"]')].every(
              (dialog) =>
                getComputedStyle(dialog).opacity === '1' || dialog.getClientRects().length === 0,
            ),
        );
        const results = await new AxeBuilder({ page }).analyze();
        found.push(
          ...results.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map(
              (v) =>
                `${scheme}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
            ),
        );
      }
      await page.evaluate((value) => {
        if (value) document.documentElement.setAttribute('data-mantine-color-scheme', value);
      }, own);
      expect(found).toEqual([]);
    });
  },
});

export { expect };

/** Signs in through the real sign-in page. */
export async function signIn(page: Page, kyc: KycServer, next = '/entities') {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Username').fill(kyc.demo.username);
  await page.getByLabel('Password', { exact: true }).fill(kyc.demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(next.replace(/[/?]/g, '\\$&')));
  // The URL moves before the next screen has replaced the sign-in form.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeHidden();
}
