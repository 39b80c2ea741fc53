import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database.ts';
import { settingsRepository } from '../db/settings-repository.ts';
import type { Config } from '../env.ts';

/**
 * JWT_SECRET when set; otherwise a random secret kept in the database, so every instance on it
 * signs and verifies with the same key. A secret an earlier release kept in DATA_DIR/jwt-secret
 * is carried over, so tokens issued before the upgrade stay valid.
 */
export async function loadSigningKey(config: Config, db: Db): Promise<Uint8Array> {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const legacyFile = path.join(config.dataDir, 'jwt-secret');
  const candidate = fs.existsSync(legacyFile)
    ? (await fs.promises.readFile(legacyFile, 'utf8')).trim()
    : crypto.randomBytes(48).toString('base64url');
  const secret = await settingsRepository(db).getOrInsert('jwt-secret', candidate);
  return new TextEncoder().encode(secret);
}
