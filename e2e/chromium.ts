import fs from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium where it is installed (CI, these machines), with the flags this closed network
 * needs; Playwright's own browser elsewhere. Shared by the e2e suite and the console benchmark.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) =>
    fs.existsSync(file),
  );
  if (!systemChromium) return {};
  return {
    executablePath: systemChromium,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  };
}
