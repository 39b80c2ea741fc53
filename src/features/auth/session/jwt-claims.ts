import { z } from 'zod';

const claimsSchema = z.object({
  sub: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  iat: z.number().optional().catch(undefined),
  exp: z.number().optional().catch(undefined),
});
export type TokenClaims = z.infer<typeof claimsSchema>;

/**
 * Reads a JWT's payload without verifying it: the console only uses the claims for display and
 * timing, while the server decides whether the token is good.
 */
export function readTokenClaims(token: string): TokenClaims {
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    const parsed = claimsSchema.safeParse(JSON.parse(decodeBase64Url(payload)));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function decodeBase64Url(value: string): string {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const bytes = Uint8Array.from(atob(padded), (character) => character.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
