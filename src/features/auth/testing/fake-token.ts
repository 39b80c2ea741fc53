/** Builds a JWT-shaped token for tests; the signature is junk because the console never checks it. */
export function fakeToken(claims: Record<string, unknown>): string {
  return [{ alg: 'HS256', typ: 'JWT' }, claims, 'signature']
    .map((part) => (typeof part === 'string' ? part : encodeBase64Url(JSON.stringify(part))))
    .join('.');
}

function encodeBase64Url(text: string): string {
  const binary = Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte));
  return btoa(binary.join('')).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A token for `username` that the console treats as valid for `minutes` from now. */
export function tokenFor(username: string, minutes = 20, name = 'Dana Reviewer'): string {
  const iat = Math.floor(Date.now() / 1000);
  return fakeToken({ sub: username, name, iat, exp: iat + minutes * 60, jti: crypto.randomUUID() });
}
