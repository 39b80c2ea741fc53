import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconClockExclamation } from '@tabler/icons-react';
import { offerSessionRenewal } from '../session/re-sign-in.ts';

const NOTICE_ID = 'session-expiry';

/** The token the notice was last shown for, so each session warns once. */
let shownForToken: string | null = null;

/** Shows the non-blocking "session ends soon" notice, once per token. */
export function showSessionExpiryNotice(token: string): void {
  if (shownForToken === token) return;
  shownForToken = token;
  notifications.show({
    id: NOTICE_ID,
    // Away from the header, so the user's name and "Sign out" stay in view.
    position: 'bottom-right',
    title: 'Your session ends soon',
    color: 'yellow',
    icon: <IconClockExclamation size={18} aria-hidden />,
    autoClose: false,
    message: (
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          In less than two minutes you will be asked for your password again. Renew now to keep
          working without interruption.
        </Text>
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            notifications.hide(NOTICE_ID);
            offerSessionRenewal();
          }}
        >
          Stay signed in
        </Button>
      </Stack>
    ),
  });
}

export function hideSessionExpiryNotice(): void {
  notifications.hide(NOTICE_ID);
}
