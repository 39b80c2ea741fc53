import {
  signOutResponseSchema,
  tokenResponseSchema,
  tokenValidResponseSchema,
  type Credentials,
  type TokenResponse,
  type TokenValidResponse,
} from '../../../../contract/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/gettoken with the form fields the real service names `Username` and `Password`. */
export function requestToken(credentials: Credentials): Promise<TokenResponse> {
  return apiRequest('/api/gettoken', {
    method: 'POST',
    body: new URLSearchParams({ Username: credentials.Username, Password: credentials.Password }),
    schema: tokenResponseSchema,
    authenticated: false,
  });
}

/** GET /api/tokenvalid for a given token; a 401 rejects with ApiError instead of opening the dialog. */
export function checkToken(token: string): Promise<TokenValidResponse> {
  return apiRequest('/api/tokenvalid', {
    headers: { Authorization: `Bearer ${token}` },
    schema: tokenValidResponseSchema,
    authenticated: false,
  });
}

/** POST /api/signout: ends this token's session on the server, or every session of the account. */
export async function revokeSession(token: string, everywhere: boolean): Promise<void> {
  await apiRequest('/api/signout', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: { everywhere },
    schema: signOutResponseSchema,
    authenticated: false,
    keepalive: true,
  });
}
