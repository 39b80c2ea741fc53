import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
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

/**
 * The account and expiry of a valid token, or null: bad signature, any algorithm but HS256,
 * expired (by its `exp` or by its session's stored expiry), issued in the future, revoked
 * (password reset), or a disabled account.
 */
export async function verifyToken(services: AppServices, token: string) {
  try {
    const now = Math.floor(services.now().getTime() / 1000);
    const { payload } = await jwtVerify(token, services.signingKey, {
      algorithms: ['HS256'],
      currentDate: services.now(),
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
    });
    if (
      typeof payload.iat !== 'number' ||
      payload.iat > now + 60 ||
      typeof payload.jti !== 'string'
    )
      return null;
    const account = await accountsRepository(services.db).findLiveSessionAccount(payload.jti, now);
    if (!account || account.id !== payload.sub) return null;
    const expiresAt = Math.min(payload.exp ?? 0, account.session_expires_at);
    return { account, expiresAt: new Date(expiresAt * 1000).toISOString() };
  } catch {
    return null;
  }
}
