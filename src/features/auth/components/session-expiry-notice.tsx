import { Button, Group, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { offerSessionRenewal } from '../session/re-sign-in.ts';

/** The token the notice was last shown for, so each session warns once. */
let shownForToken: string | null = null;
let visible = false;
const listeners = new Set<() => void>();

function setVisible(next: boolean): void {
  if (visible === next) return;
  visible = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the non-blocking "session ends soon" notice, once per token. */
export function showSessionExpiryNotice(token: string): void {
  if (shownForToken === token) return;
  shownForToken = token;
  setVisible(true);
}

export function hideSessionExpiryNotice(): void {
  setVisible(false);
}

/** Whether the notice is up; the shell reserves a bar for it so it covers no control. */
export function useSessionExpiryNoticeShown(): boolean {
  return useSyncExternalStore(subscribe, () => visible);
}

/** The notice's content, for the bar the shell reserves at the bottom of the page. */
export function SessionExpiryNotice() {
  return (
    <Group role="alert" gap="sm" wrap="nowrap" align="center" justify="space-between">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconClockExclamation
          size={20}
          color="var(--mantine-color-orange-9)"
          aria-hidden
          style={{ flexShrink: 0 }}
        />
        <Text size="sm">
          <Text span fw={600} inherit>
            Your session ends soon.
          </Text>{' '}
          In less than two minutes you will be asked for your password again.
        </Text>
      </Group>
      <Button
        size="xs"
        variant="light"
        style={{ flexShrink: 0 }}
        onClick={() => {
          hideSessionExpiryNotice();
          offerSessionRenewal();
        }}
      >
        Stay signed in
      </Button>
    </Group>
  );
}
