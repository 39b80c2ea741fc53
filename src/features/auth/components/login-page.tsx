import { Alert, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { safeNextPath } from '../session/next-path.ts';
import { useSessionState } from '../session/session-store.ts';
import { SignInForm } from './sign-in-form.tsx';

/** The sign-in route: kept to the form alone so it loads fast. */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'), paths.entities);
  const navigate = useNavigate();
  const { session, signedOutBy } = useSessionState();
  const signedIn = session !== null;

  // Signed in here, or handed a session by another tab while the form showed. An effect, not
  // <Navigate>: re-rendered while a lazy route loads, <Navigate> starts its navigation again.
  useEffect(() => {
    if (signedIn) void navigate(next, { replace: true });
  }, [signedIn, navigate, next]);

  return (
    <Center mih="100vh" p="md" bg="var(--kyc-color-page)">
      <Box component="main" w="100%" maw={400}>
        <Stack gap="lg">
          <Stack gap={4} align="center">
            <IconShieldCheck
              size={40}
              stroke={1.5}
              color="var(--mantine-color-indigo-6)"
              aria-hidden
            />
            <Text fw={700} size="lg">
              KYC Desk
            </Text>
          </Stack>
          {signedOutBy === 'other-tab' && (
            <Alert color="blue" variant="light" title="You signed out in another tab">
              Signing out in one tab signs out every tab of this browser.
            </Alert>
          )}
          <Paper withBorder shadow="sm" p="xl" radius="md">
            <Stack gap="lg">
              <Stack gap={4}>
                <Title order={1} size="h2">
                  Sign in
                </Title>
                <Text size="sm" c="dimmed">
                  Use the account your operator issued to you.
                </Text>
              </Stack>
              <SignInForm onSignedIn={() => undefined} />
              {signedOutBy === undefined && (
                <Text size="xs" c="dimmed">
                  No signed-in KYC Desk tab is open in this browser. A session lives only in its
                  open tabs, never on disk: tabs opened while one is signed in share it, and it ends
                  when the last of them closes.
                </Text>
              )}
            </Stack>
          </Paper>
        </Stack>
      </Box>
    </Center>
  );
}
