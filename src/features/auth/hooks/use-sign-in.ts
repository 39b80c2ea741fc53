import { useMutation } from '@tanstack/react-query';
import type { Credentials } from '../../../../contract/auth.ts';
import { requestToken } from '../api/token-requests.ts';
import { startSession } from '../session/session-store.ts';
import { announceSession } from '../session/tab-sessions.ts';

/** Exchanges credentials for a token, starts the session with it and hands it to the other tabs. */
export function useSignIn() {
  return useMutation({
    mutationFn: async (credentials: Credentials) => {
      const session = startSession(await requestToken(credentials), credentials.Username);
      announceSession(session);
      return session;
    },
  });
}
