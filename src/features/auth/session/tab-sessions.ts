import { z } from 'zod';
import { hideSessionExpiryNotice } from '../components/session-expiry-notice.tsx';
import { finishReSignIn } from './re-sign-in.ts';
import {
  adoptSession,
  endSession,
  getSession,
  sessionSchema,
  setAskingOtherTabs,
  type Session,
} from './session-store.ts';

/** One channel per origin: BroadcastChannel never crosses origins, browsers or private windows. */
export const TAB_SESSION_CHANNEL = 'kyc-desk.session';

/** How long a new tab waits for an open tab's answer before it shows the sign-in page. */
export const HAND_OVER_WAIT_MS = 400;

const messageSchema = z.discriminatedUnion('kind', [
  // A new tab without a session asks; every open, signed-in tab answers with its own.
  z.object({ kind: z.literal('ask') }),
  // An answer, or a fresh sign-in in one tab, which the others of the same user take up.
  z.object({ kind: z.literal('session'), session: sessionSchema }),
  // Someone signed out in one tab: every tab forgets its token.
  z.object({ kind: z.literal('signed-out') }),
]);
type TabMessage = z.infer<typeof messageSchema>;

let channel: BroadcastChannel | null = null;

function post(message: TabMessage): void {
  channel?.postMessage(message);
}

function receive(data: unknown, onSignedOutElsewhere: (token: string) => void): void {
  const parsed = messageSchema.safeParse(data);
  if (!parsed.success) return;
  const message = parsed.data;
  const current = getSession();
  if (message.kind === 'ask') {
    if (current && current.expiresAt > Date.now()) post({ kind: 'session', session: current });
    return;
  }
  if (message.kind === 'session') {
    const offered = message.session;
    if (offered.expiresAt <= Date.now() || offered.token === current?.token) return;
    // Another user's sign-in elsewhere never replaces this tab's account.
    if (current && current.username !== offered.username) return;
    setAskingOtherTabs(false);
    adoptSession(offered);
    hideSessionExpiryNotice();
    // Requests waiting on this tab's re-sign-in dialog retry with the renewed token.
    finishReSignIn(true);
    return;
  }
  if (!current) return;
  onSignedOutElsewhere(current.token);
  hideSessionExpiryNotice();
  endSession({ byUser: true, signedOutBy: 'other-tab' });
  finishReSignIn(false);
}

/**
 * Shares the session between the open tabs of this browser, keeping the token in memory and
 * sessionStorage only: a tab opened without one asks the others, which answer with theirs; a
 * sign-in or renewal in one tab reaches the rest; a sign-out in one signs out all.
 * `onSignedOutElsewhere` gets this tab's token when it is signed out from another (to revoke it
 * if it differs, and to clear cached records). Returns a function that stops sharing.
 */
export function shareSessionBetweenTabs({
  onSignedOutElsewhere,
  channelName = TAB_SESSION_CHANNEL,
  waitMs = HAND_OVER_WAIT_MS,
}: {
  onSignedOutElsewhere: (token: string) => void;
  channelName?: string;
  waitMs?: number;
}): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const own = new BroadcastChannel(channelName);
  channel = own;
  own.onmessage = (event: MessageEvent) => receive(event.data, onSignedOutElsewhere);
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (!getSession()) {
    setAskingOtherTabs(true);
    timer = setTimeout(() => setAskingOtherTabs(false), waitMs);
    post({ kind: 'ask' });
  }
  return () => {
    clearTimeout(timer);
    setAskingOtherTabs(false);
    own.close();
    if (channel === own) channel = null;
  };
}

/** Tells the other tabs about a sign-in or renewal in this one. */
export function announceSession(session: Session): void {
  post({ kind: 'session', session });
}

/** Tells the other tabs to sign out too. */
export function announceSignOut(): void {
  post({ kind: 'signed-out' });
}
