import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { revokeSession } from '../api/token-requests.ts';
import { hideSessionExpiryNotice } from '../components/session-expiry-notice.tsx';
import { finishReSignIn } from '../session/re-sign-in.ts';
import { endSession, getSession } from '../session/session-store.ts';
import { announceSignOut } from '../session/tab-sessions.ts';

/**
 * Ends the session on the server (this token, or with `everywhere` every session of the account),
 * then forgets the token and every cached record, in this tab and every other open one; the route
 * guard then shows the sign-in page.
 * Requests waiting on the re-sign-in dialog fail with their 401.
 */
export function useSignOut({ everywhere = false }: { everywhere?: boolean } = {}): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    const token = getSession()?.token;
    // Not awaited: signing out here never waits on the network; an expired token is already dead.
    if (token) void revokeSession(token, everywhere).catch(() => undefined);
    hideSessionExpiryNotice();
    endSession({ byUser: true, signedOutBy: 'this-tab' });
    announceSignOut();
    finishReSignIn(false);
    queryClient.clear();
  }, [queryClient, everywhere]);
}
