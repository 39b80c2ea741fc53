import crypto from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { createConcurrencyLimit } from './concurrency.ts';

const scryptAtOnce = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 64 } as const;

// One hash per core at a time: each holds 16 MB (128·N·r) while it runs, and more at once would
// only share the cores (4 sign-ins at once raised the server's peak RSS by about 30 MB).
const oneHashPerCore = createConcurrencyLimit(os.availableParallelism());

function scrypt(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: crypto.ScryptOptions,
): Promise<Buffer> {
  return oneHashPerCore(() => scryptAtOnce(password, salt, keyLength, options));
}

/** `scrypt$N$r$p$salt$hash`, salt and hash base64url; parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keyLength, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A random password a person can type: 20 characters from an unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(crypto.randomBytes(20), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** A new API key: `kyc_` and 32 random bytes; only its hash is ever stored. */
export function generateApiKey(): string {
  return `kyc_${crypto.randomBytes(32).toString('base64url')}`;
}

/** API keys carry 256 random bits, so one SHA-256 (no salt, no stretching) is enough to store them. */
export function hashApiKey(apiKey: string): string {
  return crypto.createHash('sha256').update(apiKey).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
