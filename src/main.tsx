import './lib/zod-config.ts';
import './app/mantine.css';
import './app/boot-notice.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/router.tsx';
import { queryClient } from './app/query-client-instance.ts';
import { revokeSession } from './features/auth/api/token-requests.ts';
import { shareSessionBetweenTabs } from './features/auth/session/tab-sessions.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

shareSessionBetweenTabs({
  onSignedOutElsewhere: (token) => {
    // This tab may hold a token of its own (signed in here): it ends with the others.
    void revokeSession(token, false).catch(() => undefined);
    queryClient.clear();
  },
});

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={createBrowserRouter(routes)} />
    </AppProviders>
  </StrictMode>,
);
