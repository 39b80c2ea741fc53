import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { restrictFile } from '../db/data-dir.ts';
import type { Config } from '../env.ts';

/** JWT_SECRET when set; otherwise a random secret created once in DATA_DIR (mode 0600). */
export async function loadSigningKey(config: Config): Promise<Uint8Array> {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    await fs.promises.writeFile(file, crypto.randomBytes(48).toString('base64url'), {
      flag: 'wx',
      mode: 0o600,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    restrictFile(file);
  }
  return new TextEncoder().encode((await fs.promises.readFile(file, 'utf8')).trim());
}
