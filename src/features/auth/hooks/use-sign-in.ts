import { useMutation } from '@tanstack/react-query';
import type { Credentials } from '../../../contract/auth.ts';
import { requestToken } from '../api/token-requests.ts';
import { startSession } from '../session/session-store.ts';

/** Exchanges credentials for a token and starts the session with it. */
export function useSignIn() {
  return useMutation({
    mutationFn: async (credentials: Credentials) =>
      startSession(await requestToken(credentials), credentials.Username),
  });
}
