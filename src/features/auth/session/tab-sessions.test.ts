import { tokenFor } from '../testing/fake-token.ts';
import {
  endSession,
  getSession,
  getSessionState,
  startSession,
  type Session,
} from './session-store.ts';
import { announceSession, announceSignOut, shareSessionBetweenTabs } from './tab-sessions.ts';

let stops: (() => void)[] = [];
let otherTabs: BroadcastChannel[] = [];

afterEach(() => {
  for (const stop of stops) stop();
  for (const tab of otherTabs) tab.close();
  stops = [];
  otherTabs = [];
  endSession({ byUser: false });
});

/** A unique channel per test, and another "tab" listening on it. */
function otherTab(name: string) {
  const tab = new BroadcastChannel(name);
  otherTabs.push(tab);
  const received: unknown[] = [];
  tab.onmessage = (event: MessageEvent) => received.push(event.data);
  return { tab, received };
}

function share(name: string, onSignedOutElsewhere = vi.fn(), waitMs = 2_000) {
  stops.push(shareSessionBetweenTabs({ onSignedOutElsewhere, channelName: name, waitMs }));
  return onSignedOutElsewhere;
}

function sessionOf(username: string, token = tokenFor(username)): Session {
  return {
    token,
    username,
    displayName: 'Dana Reviewer',
    expiresAt: Date.now() + 600_000,
    clockSkewMs: 0,
  };
}

test('a new tab asks the open tabs and takes the session one of them hands over', async () => {
  const name = crypto.randomUUID();
  const { tab, received } = otherTab(name);
  const handed = sessionOf('dana');
  tab.onmessage = (event: MessageEvent) => {
    received.push(event.data);
    if ((event.data as { kind: string }).kind === 'ask')
      tab.postMessage({ kind: 'session', session: handed });
  };
  share(name);
  expect(getSessionState().askingOtherTabs).toBe(true);
  await vi.waitFor(() => expect(getSession()?.token).toBe(handed.token));
  expect(received).toEqual([{ kind: 'ask' }]);
  expect(getSessionState().askingOtherTabs).toBeFalsy();
});

test('with no other tab open, the tab stops waiting and stays signed out', async () => {
  share(crypto.randomUUID(), vi.fn(), 50);
  expect(getSessionState().askingOtherTabs).toBe(true);
  await vi.waitFor(() => expect(getSessionState().askingOtherTabs).toBe(false));
  expect(getSession()).toBeNull();
});

test('a signed-in tab answers a new tab with its session, and an expired one gives nothing', async () => {
  const name = crypto.randomUUID();
  const session = startSession({ token: tokenFor('dana') }, 'dana');
  share(name);
  const { tab, received } = otherTab(name);
  tab.postMessage({ kind: 'ask' });
  await vi.waitFor(() => expect(received).toEqual([{ kind: 'session', session }]));

  startSession({ token: tokenFor('dana', -1) }, 'dana');
  tab.postMessage({ kind: 'ask' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(received).toHaveLength(1);
});

test('signing out in another tab signs this one out and says where it happened', async () => {
  const name = crypto.randomUUID();
  const session = startSession({ token: tokenFor('dana') }, 'dana');
  const onSignedOutElsewhere = share(name);
  otherTab(name).tab.postMessage({ kind: 'signed-out' });
  await vi.waitFor(() => expect(getSession()).toBeNull());
  expect(getSessionState()).toMatchObject({ signedOut: true, signedOutBy: 'other-tab' });
  expect(onSignedOutElsewhere).toHaveBeenCalledWith(session.token);
});

test('a sign-in elsewhere renews this tab for the same user only', async () => {
  const name = crypto.randomUUID();
  startSession({ token: tokenFor('dana') }, 'dana');
  share(name);
  const { tab } = otherTab(name);
  tab.postMessage({ kind: 'session', session: sessionOf('erin') });
  tab.postMessage({
    kind: 'session',
    session: { ...sessionOf('dana'), expiresAt: Date.now() - 1 },
  });
  const renewed = sessionOf('dana');
  tab.postMessage({ kind: 'session', session: renewed });
  await vi.waitFor(() => expect(getSession()?.token).toBe(renewed.token));
  expect(getSession()?.username).toBe('dana');
});

test('this tab announces its sign-ins and sign-outs; malformed messages are ignored', async () => {
  const name = crypto.randomUUID();
  startSession({ token: tokenFor('dana') }, 'dana');
  share(name);
  const { tab, received } = otherTab(name);
  tab.postMessage({ kind: 'session', session: { token: 'x' } });
  tab.postMessage('signed-out');
  const session = sessionOf('dana');
  announceSession(session);
  announceSignOut();
  await vi.waitFor(() => expect(received).toHaveLength(2));
  expect(received).toEqual([{ kind: 'session', session }, { kind: 'signed-out' }]);
  expect(getSession()?.username).toBe('dana');
});
