import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import type { TokenResponse } from '../../../../contract/auth.ts';
import { readTokenClaims } from './jwt-claims.ts';

/** The interface promises 20-minute tokens; used only when neither `expiresAt` nor `exp` is given. */
const DEFAULT_LIFETIME_MS = 20 * 60_000;

/** sessionStorage, never localStorage: the token dies with the tab. */
export const SESSION_STORAGE_KEY = 'kyc-desk.session';

export const sessionSchema = z.object({
  token: z.string().min(1),
  username: z.string(),
  displayName: z.string(),
  /** When the token expires, on this browser's clock (milliseconds since the epoch). */
  expiresAt: z.number(),
  /** This browser's clock minus the server's, measured at sign-in from the token's `iat`. */
  clockSkewMs: z.number(),
});
export type Session = z.infer<typeof sessionSchema>;

/** Why this tab has no session: signed out here, in another tab, or never signed in. */
export type SignedOutBy = 'this-tab' | 'other-tab';

export interface SessionState {
  session: Session | null;
  /** True after the user chose to sign out, so the redirect to sign-in carries no `next`. */
  signedOut: boolean;
  /** Where the sign-out happened, so the sign-in page can say why it shows. */
  signedOutBy?: SignedOutBy;
  /** True while this tab asks the other open tabs for their session (a moment at load). */
  askingOtherTabs?: boolean;
}

let state: SessionState = { session: readStoredSession(Date.now()), signedOut: false };
const listeners = new Set<() => void>();

function readStoredSession(now: number): Session | null {
  let stored: string | null;
  try {
    stored = sessionStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!stored) return null;
  const parsed = parseSession(stored);
  // A token that expired while the tab was closed is no use: start from the sign-in page.
  if (!parsed || parsed.expiresAt <= now) {
    sessionStorage.removeItem(SESSION_STORAGE_KEY);
    return null;
  }
  return parsed;
}

function parseSession(text: string): Session | null {
  try {
    const parsed = sessionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function setState(next: SessionState): void {
  state = next;
  if (next.session) sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(next.session));
  else sessionStorage.removeItem(SESSION_STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function getSessionState(): SessionState {
  return state;
}

export function getSession(): Session | null {
  return state.session;
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Builds a session from a fresh `/api/gettoken` answer; exported for tests of the timing rules. */
export function sessionFromToken(response: TokenResponse, username: string, now: number): Session {
  const claims = readTokenClaims(response.token);
  const clockSkewMs = claims.iat === undefined ? 0 : now - claims.iat * 1000;
  const serverExpiresAt = response.expiresAt ? Date.parse(response.expiresAt) : Number.NaN;
  let expiresAt: number;
  if (!Number.isNaN(serverExpiresAt)) expiresAt = serverExpiresAt + clockSkewMs;
  else if (claims.exp !== undefined) expiresAt = claims.exp * 1000 + clockSkewMs;
  else expiresAt = now + DEFAULT_LIFETIME_MS;
  return {
    token: response.token,
    username,
    displayName: claims.name || claims.sub || username,
    expiresAt,
    clockSkewMs,
  };
}

export function startSession(response: TokenResponse, username: string): Session {
  const session = sessionFromToken(response, username, Date.now());
  setState({ session, signedOut: false });
  return session;
}

/** `/api/tokenvalid` reports the expiry on the server's clock; keep ours in step with it. */
export function updateSessionExpiry(token: string, serverExpiresAt: string): void {
  const current = state.session;
  const expiresAt = Date.parse(serverExpiresAt);
  if (current?.token !== token || Number.isNaN(expiresAt)) return;
  const adjusted = expiresAt + current.clockSkewMs;
  if (adjusted === current.expiresAt) return;
  setState({ ...state, session: { ...current, expiresAt: adjusted } });
}

/** Forgets the token in memory and in sessionStorage. */
export function endSession({
  byUser,
  signedOutBy,
}: {
  byUser: boolean;
  signedOutBy?: SignedOutBy;
}): void {
  setState({ session: null, signedOut: byUser, ...(signedOutBy ? { signedOutBy } : {}) });
}

/** Takes the session another tab of this browser handed over (see tab-sessions.ts). */
export function adoptSession(session: Session): void {
  setState({ session, signedOut: false });
}

/** Marks the moment this tab waits for another tab's answer; the route guard waits with it. */
export function setAskingOtherTabs(asking: boolean): void {
  if (Boolean(state.askingOtherTabs) === asking) return;
  setState({ ...state, askingOtherTabs: asking });
}

export function useSessionState(): SessionState {
  return useSyncExternalStore(subscribeToSession, getSessionState);
}

export function useSession(): Session | null {
  return useSessionState().session;
}
