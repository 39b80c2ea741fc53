import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters, 256 bits (decisions.md "Client responses"). */
export const PORTAL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The hash the database keeps: a stolen table names no working link. */
export function hashPortalToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new portal link's token and the hash to store. */
export function newPortalToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashPortalToken(token) };
}
