import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { safeNextPath } from '../session/next-path.ts';
import { SignInForm } from './sign-in-form.tsx';

/** The sign-in route: kept to the form alone so it loads fast. */
export function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'), paths.entities);

  return (
    <Center mih="100vh" p="md" bg="gray.0">
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
              <SignInForm onSignedIn={() => void navigate(next, { replace: true })} />
            </Stack>
          </Paper>
        </Stack>
      </Box>
    </Center>
  );
}
