import { configureAuth } from '../../../lib/api-client.ts';
import { requestReSignIn } from './re-sign-in.ts';
import { getSession } from './session-store.ts';

/** Gives the api client the session's token, and the re-sign-in dialog for a 401. */
export function connectSessionToApiClient(): void {
  configureAuth({
    getToken: () => getSession()?.token ?? null,
    // Signed out already (e.g. a request still in flight after "Sign out"): nothing to retry.
    onUnauthorized: () => (getSession() ? requestReSignIn() : Promise.resolve(false)),
  });
}
