import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSessionState } from '../features/auth/session/session-store.ts';
import { paths } from '../lib/paths.ts';

/**
 * Routes under the shell need a session. Without one, the sign-in page opens with `?next=` set to
 * the address asked for, so deep links land where they pointed; after "Sign out" it opens plain.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { session, signedOut, askingOtherTabs } = useSessionState();
  const location = useLocation();
  if (session) return children;
  // A moment (at most HAND_OVER_WAIT_MS) for another open tab to hand its session over.
  if (askingOtherTabs) return null;
  const wanted = `${location.pathname}${location.search}${location.hash}`;
  const target =
    signedOut || wanted === paths.home
      ? paths.login
      : `${paths.login}?${new URLSearchParams({ next: wanted }).toString()}`;
  return <Navigate to={target} replace />;
}
