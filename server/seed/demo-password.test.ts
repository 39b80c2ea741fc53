import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { verifyPassword } from '../auth/secrets.ts';
import { openDatabase } from '../db/database.ts';
import { demoAccountNotice } from './demo-notice.ts';

const DEMO = { username: 'demo', password: 'Xk3v-9QpL-2mRt-7WzN' };

test('a terminal is shown the demo password once, with how to reset it', () => {
  const text = demoAccountNotice(DEMO, true).join('\n');
  expect(text).toContain('Sign in as "demo" with password: Xk3v-9QpL-2mRt-7WzN');
  expect(text).toContain('npm run admin -- account:reset-password demo');
});

test('output that is not a terminal gets no password, only where to set one', () => {
  const text = demoAccountNotice(DEMO, false).join('\n');
  expect(text).not.toContain(DEMO.password);
  expect(text).toContain('Demo data loaded');
  expect(text).toContain('npm run admin -- account:reset-password demo');
});

/** Runs the real entry point with stdout piped (as under systemd or docker) until it listens. */
async function firstStartOutput(dataDir: string): Promise<string> {
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/running at http:\/\/\S+[\s\S]*Demo data loaded[\s\S]*\n\n/.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`exited with ${String(code)}: ${output}`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
  return output;
}

test('a first start with piped output never writes the demo password to it', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-demo-password-'));
  try {
    const output = await firstStartOutput(dataDir);
    expect(output).toContain('npm run admin -- account:reset-password demo');
    expect(output).not.toMatch(/with password:/);

    const { db } = await openDatabase(dataDir);
    try {
      const account = await accountsRepository(db).findByUsername('demo');
      if (!account) throw new Error('the first start created no demo account');
      // The demo password is 20 characters; no word of the output of that length or more is it.
      const candidates = output.split(/[\s"':(),]+/).filter((word) => word.length >= 16);
      for (const word of candidates) {
        expect(await verifyPassword(word, account.password_hash), word).toBe(false);
      }
    } finally {
      await db.destroy();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
