import { Outlet } from 'react-router';

/** STUB: replaced by the auth work (app shell, navigation, user, sign-out, RequireAuth). */
export function AppLayout() {
  return <Outlet />;
}
