import { z } from 'zod';

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
