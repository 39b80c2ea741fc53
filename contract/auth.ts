import { z } from 'zod';
import { envelopeSchema } from './common.ts';

export const credentialsSchema = z.object({
  Username: z.string().trim().min(1, 'Enter your username.').max(100),
  Password: z.string().min(1, 'Enter your password.').max(200),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** `expiresAt` is this project's addition; the real service answers with the token alone. */
export const tokenResponseSchema = z.object({
  token: z.string().min(1),
  expiresAt: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const tokenValidResponseSchema = z.object({
  isTokenValid: z.boolean(),
  expiresAt: z.string().optional(),
});
export type TokenValidResponse = z.infer<typeof tokenValidResponseSchema>;

/** POST /api/signout: this token's session, or with `everywhere` every session of the account. */
export const signOutRequestSchema = z.strictObject({
  everywhere: z.boolean().default(false),
});
export type SignOutRequest = z.input<typeof signOutRequestSchema>;

export const signOutResultSchema = z.object({
  revokedSessions: z.number().int().nonnegative(),
});
export const signOutResponseSchema = envelopeSchema(signOutResultSchema);
