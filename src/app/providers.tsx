import { MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

/** Mantine, notifications and the query cache; tests pass `env="test"` to show popovers at once. */
export function AppProviders({
  queryClient,
  children,
  env,
}: {
  queryClient: QueryClient;
  children: ReactNode;
  env?: 'test';
}) {
  return (
    <MantineProvider theme={theme} {...(env ? { env } : {})}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
