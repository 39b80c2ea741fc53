import { useSyncExternalStore } from 'react';

/** `expired`: the token no longer works; `expiring`: the user chose to renew it early. */
export type ReSignInReason = 'expired' | 'expiring';

export interface ReSignInState {
  open: boolean;
  reason: ReSignInReason;
}

let state: ReSignInState = { open: false, reason: 'expired' };
let waiting: { promise: Promise<boolean>; resolve: (signedIn: boolean) => void } | null = null;
const listeners = new Set<() => void>();

function setState(next: ReSignInState): void {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * Opens the re-sign-in dialog and resolves true once the user has signed in again, false if
 * they sign out. Every caller while the dialog is open shares the one dialog and the one promise.
 */
export function requestReSignIn(): Promise<boolean> {
  if (!waiting) {
    let resolve: (signedIn: boolean) => void = () => undefined;
    const promise = new Promise<boolean>((settle) => {
      resolve = settle;
    });
    waiting = { promise, resolve };
  }
  if (!state.open || state.reason !== 'expired') setState({ open: true, reason: 'expired' });
  return waiting.promise;
}

/** Opens the dialog so the user can renew a session that still works; nothing waits on it. */
export function offerSessionRenewal(): void {
  if (!state.open) setState({ open: true, reason: 'expiring' });
}

/** Closes the dialog and releases everyone waiting, with whether they may retry. */
export function finishReSignIn(signedIn: boolean): void {
  waiting?.resolve(signedIn);
  waiting = null;
  if (state.open) setState({ ...state, open: false });
}

export function getReSignInState(): ReSignInState {
  return state;
}

export function useReSignInState(): ReSignInState {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, getReSignInState);
}

/** "Not now" on an early renewal; a dialog for an expired session cannot be dismissed. */
export function dismissRenewal(): void {
  if (state.open && state.reason === 'expiring') setState({ ...state, open: false });
}
