import { Button, Modal, Stack, Text } from '@mantine/core';
import { dismissRenewal, finishReSignIn, useReSignInState } from '../session/re-sign-in.ts';
import { useSession } from '../session/session-store.ts';
import { hideSessionExpiryNotice } from './session-expiry-notice.tsx';
import { SignInForm } from './sign-in-form.tsx';

/**
 * Asks for the password again over the current page, which stays mounted so nothing typed is
 * lost; requests that failed with 401 are retried once the user is back.
 */
export function ReSignInDialog({ onSignOut }: { onSignOut: () => void }) {
  const { open, reason } = useReSignInState();
  const session = useSession();
  const expired = reason === 'expired';

  return (
    <Modal
      opened={open}
      onClose={dismissRenewal}
      title={expired ? 'Your session has ended' : 'Stay signed in'}
      centered
      closeOnEscape={!expired}
      closeOnClickOutside={!expired}
      withCloseButton={!expired}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        <Text size="sm">
          {expired
            ? 'For your security, sign in again to continue. This page stays as it is, so nothing you typed is lost.'
            : 'Enter your password to renew your session now, so you are not interrupted later.'}
        </Text>
        <SignInForm
          defaultUsername={session?.username ?? ''}
          usernameReadOnly={Boolean(session?.username)}
          onSignedIn={() => {
            hideSessionExpiryNotice();
            finishReSignIn(true);
          }}
          extraActions={
            <Button variant="subtle" color="gray" onClick={onSignOut}>
              Sign out
            </Button>
          }
        />
      </Stack>
    </Modal>
  );
}
