import crypto from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { AccountRow } from '../db/schema.ts';
import type { AppServices } from '../services.ts';
import { accountsRepository } from './accounts-repository.ts';

/** Issues an HS256 JWT (`sub`, `name`, `iat`, `exp`, `jti`) and records its session. */
export async function issueToken(services: AppServices, account: AccountRow) {
  const issuedAt = Math.floor(services.now().getTime() / 1000);
  const expiresAt = issuedAt + services.config.tokenTtlSeconds;
  const jti = crypto.randomUUID();
  const token = await new SignJWT({ name: account.display_name })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(account.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(jti)
    .sign(services.signingKey);
  await accountsRepository(services.db).insertSession({
    jti,
    accountId: account.id,
    expiresAt,
    nowSeconds: issuedAt,
  });
  return { token, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/** Tokens whose signature has been checked, per key; the oldest goes first past this many. */
const MAX_CHECKED_TOKENS = 1000;
const checkedTokens = new WeakMap<Uint8Array, Map<string, JWTPayload>>();

/**
 * The claims of a token signed with `key` (HS256, with sub, iat, exp, jti), not expired at `now`;
 * throws otherwise. A token checked before is not checked again: the HMAC through WebCrypto cost
 * 0.35 ms a request.
 */
async function signedClaims(key: Uint8Array, token: string, now: Date): Promise<JWTPayload> {
  let checked = checkedTokens.get(key);
  if (!checked) {
    checked = new Map();
    checkedTokens.set(key, checked);
  }
  const known = checked.get(token);
  if (known) {
    if ((known.exp ?? 0) <= Math.floor(now.getTime() / 1000)) throw new Error('expired');
    return known;
  }
  const { payload } = await jwtVerify(token, key, {
    algorithms: ['HS256'],
    currentDate: now,
    requiredClaims: ['sub', 'iat', 'exp', 'jti'],
  });
  if (checked.size >= MAX_CHECKED_TOKENS) checked.delete(checked.keys().next().value ?? '');
  checked.set(token, payload);
  return payload;
}

/**
 * The account and expiry of a valid token, or null: bad signature, any algorithm but HS256,
 * expired (by its `exp` or by its session's stored expiry), issued in the future, revoked
 * (password reset), or a disabled account.
 */
export async function verifyToken(services: AppServices, token: string) {
  try {
    const now = Math.floor(services.now().getTime() / 1000);
    const payload = await signedClaims(services.signingKey, token, services.now());
    if (
      typeof payload.iat !== 'number' ||
      payload.iat > now + 60 ||
      typeof payload.jti !== 'string'
    )
      return null;
    const account = await accountsRepository(services.db).findLiveSessionAccount(payload.jti, now);
    if (!account || account.id !== payload.sub) return null;
    const expiresAt = Math.min(payload.exp ?? 0, account.session_expires_at);
    return { account, jti: payload.jti, expiresAt: new Date(expiresAt * 1000).toISOString() };
  } catch {
    return null;
  }
}
