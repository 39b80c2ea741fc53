import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { hideSessionExpiryNotice } from '../components/session-expiry-notice.tsx';
import { finishReSignIn } from '../session/re-sign-in.ts';
import { endSession } from '../session/session-store.ts';

/**
 * Forgets the token and every cached record; the route guard then shows the sign-in page.
 * Requests waiting on the re-sign-in dialog fail with their 401.
 */
export function useSignOut(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    hideSessionExpiryNotice();
    endSession({ byUser: true });
    finishReSignIn(false);
    queryClient.clear();
  }, [queryClient]);
}
