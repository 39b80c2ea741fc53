import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where the device cookie is sent: the sign-in route only, so no other request carries it. */
export const DEVICE_COOKIE_PATH = '/api/gettoken';
const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

/** The cookie signer's key: derived from the token key, so it is never the same secret twice. */
export function deviceCookieSecret(signingKey: Uint8Array): string {
  return crypto
    .createHmac('sha256', signingKey)
    .update('kyc-desk device cookie v1')
    .digest('base64url');
}

/** Every device cookie's name starts so; the gateway relays these and no other cookie. */
export const DEVICE_COOKIE_PREFIX = 'kyc_device_';

/** One cookie per account, so a browser shared by two reviewers stays trusted for both. */
export function deviceCookieName(username: string): string {
  const digest = crypto.createHash('sha256').update(username.toLowerCase()).digest('hex');
  return `${DEVICE_COOKIE_PREFIX}${digest.slice(0, 16)}`;
}

/**
 * The nonce of the signed device cookie this browser holds for `username`, or undefined when it
 * has none, or one that is forged, altered or issued to another account.
 */
export function deviceNonceOf(request: FastifyRequest, username: string): string | undefined {
  const raw = request.cookies[deviceCookieName(username)];
  if (raw === undefined) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid) return undefined;
  const [owner, nonce, ...rest] = unsigned.value.split('.');
  if (rest.length > 0 || nonce === undefined || nonce === '') return undefined;
  const ownerName = Buffer.from(owner ?? '', 'base64url').toString('utf8');
  return ownerName === username.toLowerCase() ? nonce : undefined;
}

/** A new device cookie for `username` after a correct password (a fresh nonce each time). */
export function setDeviceCookie(reply: FastifyReply, username: string): void {
  const owner = Buffer.from(username.toLowerCase(), 'utf8').toString('base64url');
  reply.setCookie(deviceCookieName(username), `${owner}.${crypto.randomUUID()}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: 'auto',
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
