import { useEffect } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { checkToken } from '../api/token-requests.ts';
import {
  hideSessionExpiryNotice,
  showSessionExpiryNotice,
} from '../components/session-expiry-notice.tsx';
import { getReSignInState, requestReSignIn } from '../session/re-sign-in.ts';
import { getSession, updateSessionExpiry } from '../session/session-store.ts';
import { expiryPhase, shouldRevalidateOnTick, TICK_MS } from '../session/session-timing.ts';

/**
 * Keeps the signed-in session honest while the shell is open: checks the token with the server
 * every minute, on focus, when the tab becomes visible and after the computer wakes; warns two
 * minutes before expiry and opens the re-sign-in dialog when the token stops working.
 */
export function useSessionMonitor(): void {
  useEffect(() => {
    let previousTick = Date.now();
    let lastValidation = Date.now();
    let validating = false;

    const checkExpiry = () => {
      const session = getSession();
      if (!session) return;
      const phase = expiryPhase(session.expiresAt, Date.now());
      if (phase === 'ending-soon') showSessionExpiryNotice(session.token);
      if (phase === 'expired') {
        hideSessionExpiryNotice();
        void requestReSignIn();
      }
    };

    const validate = async () => {
      const session = getSession();
      const dialog = getReSignInState();
      if (!session || validating || (dialog.open && dialog.reason === 'expired')) return;
      validating = true;
      lastValidation = Date.now();
      try {
        const answer = await checkToken(session.token);
        if (getSession()?.token !== session.token) return;
        if (!answer.isTokenValid) void requestReSignIn();
        else if (answer.expiresAt) updateSessionExpiry(session.token, answer.expiresAt);
      } catch (error) {
        // Offline or a server hiccup says nothing about the token; only a 401 does.
        if (error instanceof ApiError && error.status === 401) {
          if (getSession()?.token === session.token) void requestReSignIn();
        }
      } finally {
        validating = false;
      }
    };

    const onTick = () => {
      const now = Date.now();
      const revalidate = shouldRevalidateOnTick(now, previousTick, lastValidation);
      previousTick = now;
      checkExpiry();
      if (revalidate) void validate();
    };

    const onFocus = () => {
      checkExpiry();
      void validate();
    };

    const onVisibilityChange = () => {
      if (document.visibilityState === 'visible') onFocus();
    };

    checkExpiry();
    const timer = window.setInterval(onTick, TICK_MS);
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisibilityChange);
    };
  }, []);
}
