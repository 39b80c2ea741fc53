import {
  Anchor,
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  NavLink as MantineNavLink,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useElementSize } from '@mantine/hooks';
import {
  IconBuildingPlus,
  IconCalendarDue,
  IconChartDonut,
  IconChecks,
  IconHistory,
  IconListDetails,
  IconLogout,
  IconSearch,
  IconShieldCheck,
  IconUserCircle,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useIdleAfterMount } from '../components/after-first-paint.tsx';
import { ServiceUnavailableNotice } from '../components/service-unavailable-notice.tsx';
import { ReSignInDialog } from '../features/auth/components/re-sign-in-dialog.tsx';
import {
  SessionExpiryNotice,
  useSessionExpiryNoticeShown,
} from '../features/auth/components/session-expiry-notice.tsx';
import { useSessionMonitor } from '../features/auth/hooks/use-session-monitor.ts';
import { useSignOut } from '../features/auth/hooks/use-sign-out.ts';
import { useCapabilities } from '../features/capabilities/api/capabilities-queries.ts';
import { decisionQueries } from '../features/decisions/api/decision-queries.ts';
import { connectSessionToApiClient } from '../features/auth/session/connect-api-client.ts';
import { useSession } from '../features/auth/session/session-store.ts';
import {
  PaletteButton,
  ShortcutsButton,
} from '../features/command-palette/components/palette-buttons.tsx';
import classes from './app-layout.module.css';
import { AppCommandPalette } from './command-palette.tsx';
import { paths } from '../lib/paths.ts';
import { RequireAuth } from './require-auth.tsx';
import { useCanAct } from './use-can-act.ts';
import { ColorSchemeToggle } from '../components/color-scheme-toggle.tsx';

// Before any page under the shell renders and asks for data.
connectSessionToApiClient();

const MAIN_ID = 'main-content';
const FOOTER_PADDING = 10;

interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  /** A count beside the label (what waits there); none when zero or unknown. */
  count?: number;
}

const navItems: NavItem[] = [
  { label: 'Entities', to: paths.entities, icon: <IconListDetails size={18} aria-hidden /> },
  { label: 'Search', to: paths.search, icon: <IconSearch size={18} aria-hidden /> },
];

/** Only for accounts that may act: an auditor creates nothing. */
const onboardItem: NavItem = {
  label: 'Onboard legal entity',
  to: paths.onboard,
  icon: <IconBuildingPlus size={18} aria-hidden />,
};

/** First when the running mode offers the review queue. */
const reviewsItem: NavItem = {
  label: 'Reviews',
  to: paths.reviews,
  icon: <IconCalendarDue size={18} aria-hidden />,
};

/** Where the mode keeps the entities: the counts, each a link. */
const overviewItem: NavItem = {
  label: 'Overview',
  to: paths.overview,
  icon: <IconChartDonut size={18} aria-hidden />,
};

/** For reviewers where the mode keeps held decisions, with how many wait for them. */
const waitingItem: NavItem = {
  label: 'Waiting for me',
  to: paths.waiting,
  icon: <IconChecks size={18} aria-hidden />,
};

function CountBadge({ count }: { count: number | undefined }) {
  if (!count) return null;
  return (
    <Badge size="sm" circle={count < 10} variant="filled" color="red">
      {count}
    </Badge>
  );
}

/** The link's name with its count, "Waiting for me (2)": browsers join the badge without a space. */
function accessibleNameOf(item: NavItem): string | undefined {
  return item.count ? `${item.label} (${item.count})` : undefined;
}

/** Shown only to auditors: the global log answers anyone else with 403. */
const auditNavItem: NavItem = {
  label: 'Audit log',
  to: paths.audit,
  icon: <IconHistory size={18} aria-hidden />,
};

/** `page` on the section's own page, `true` on a page inside it (an entity under Entities). */
function currentness(pathname: string, to: string): 'page' | 'true' | undefined {
  if (pathname === to) return 'page';
  return pathname.startsWith(`${to}/`) ? 'true' : undefined;
}

/** The signed-in frame around every page: header, navigation, user, sign-out, re-sign-in. */
export function AppLayout() {
  return (
    <RequireAuth>
      <AppCommandPalette>
        <SignedInShell />
      </AppCommandPalette>
    </RequireAuth>
  );
}

function SignedInShell() {
  useSessionMonitor();
  const session = useSession();
  const signOut = useSignOut();
  const { pathname } = useLocation();
  const [navOpened, nav] = useDisclosure(false);
  const capabilities = useCapabilities();
  const canAct = useCanAct();
  const expiryNoticeShown = useSessionExpiryNoticeShown();
  const { ref: expiryNoticeRef, height: expiryNoticeHeight } = useElementSize();
  const confirms = Boolean(capabilities?.features.waitingForMe && canAct);
  // Asked for once the page's own requests are out: no one waits for it, and a phone's LCP did.
  const idle = useIdleAfterMount();
  const waitingCount = useQuery({ ...decisionQueries.waitingCount(), enabled: confirms && idle });
  const items = [
    ...(capabilities?.features.overview ? [overviewItem] : []),
    ...(capabilities?.features.reviewQueue ? [reviewsItem] : []),
    ...(confirms ? [{ ...waitingItem, count: waitingCount.data }] : []),
    ...navItems,
    ...(canAct ? [onboardItem] : []),
    ...(capabilities?.account.role === 'auditor' ? [auditNavItem] : []),
  ];

  return (
    <>
      <a
        href={`#${MAIN_ID}`}
        className={classes.skipLink}
        onClick={(event) => {
          event.preventDefault();
          document.getElementById(MAIN_ID)?.focus();
        }}
      >
        Skip to main content
      </a>
      <AppShell
        header={{ height: 60 }}
        // Six destinations, the tools and the name fit one header row only from lg (1200 px) up.
        navbar={{ width: 260, breakpoint: 'lg', collapsed: { mobile: !navOpened, desktop: true } }}
        // A bar the page makes room for: the notice never covers a control (the form's buttons).
        footer={{
          height: expiryNoticeHeight + FOOTER_PADDING * 2,
          collapsed: !expiryNoticeShown,
        }}
        padding="lg"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap">
              <Burger
                opened={navOpened}
                onClick={nav.toggle}
                hiddenFrom="lg"
                size="sm"
                aria-label="Toggle navigation"
                aria-expanded={navOpened}
              />
              <Anchor
                component={Link}
                to={paths.entities}
                underline="never"
                c="inherit"
                fw={700}
                size="lg"
                style={{ whiteSpace: 'nowrap' }}
              >
                <Group gap={6} wrap="nowrap">
                  <IconShieldCheck
                    size={24}
                    stroke={1.75}
                    color="var(--mantine-color-indigo-6)"
                    aria-hidden
                  />
                  KYC Desk
                </Group>
              </Anchor>
              <Group component="nav" aria-label="Main" gap={4} visibleFrom="lg" wrap="nowrap">
                {items.map((item) => {
                  const current = currentness(pathname, item.to);
                  return (
                    <Button
                      key={item.to}
                      component={Link}
                      to={item.to}
                      aria-current={current}
                      aria-label={accessibleNameOf(item)}
                      variant={current ? 'light' : 'subtle'}
                      color={current ? undefined : 'gray'}
                      leftSection={item.icon}
                      rightSection={<CountBadge count={item.count} />}
                      px="xs"
                    >
                      {item.label}
                    </Button>
                  );
                })}
              </Group>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <PaletteButton />
              <ShortcutsButton />
              <ColorSchemeToggle />
              <Group gap={6} wrap="nowrap" className={classes.userName}>
                <IconUserCircle size={20} stroke={1.5} aria-hidden />
                <Text size="sm" fw={500} truncate maw={150}>
                  <VisuallyHidden>Signed in as </VisuallyHidden>
                  {session?.displayName}
                </Text>
              </Group>
              <Button
                variant="default"
                leftSection={<IconLogout size={18} aria-hidden />}
                classNames={{
                  root: classes.signOutButton,
                  label: classes.signOutLabel,
                  section: classes.signOutSection,
                }}
                onClick={signOut}
              >
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar p="sm" hiddenFrom="lg">
          {navOpened && (
            <nav aria-label="Main">
              {items.map((item) => {
                const current = currentness(pathname, item.to);
                return (
                  <MantineNavLink
                    key={item.to}
                    component={Link}
                    to={item.to}
                    label={item.label}
                    leftSection={item.icon}
                    rightSection={<CountBadge count={item.count} />}
                    active={Boolean(current)}
                    aria-current={current}
                    aria-label={accessibleNameOf(item)}
                    onClick={nav.close}
                  />
                );
              })}
              <Text size="sm" c="dimmed" px="sm" mt="md">
                Signed in as {session?.displayName}
              </Text>
            </nav>
          )}
        </AppShell.Navbar>

        {/* Collapsed, its border alone would show: a 1 px line at the foot of every page. */}
        <AppShell.Footer
          px="md"
          py={FOOTER_PADDING}
          bg="var(--mantine-color-yellow-light)"
          withBorder={expiryNoticeShown}
        >
          <div ref={expiryNoticeRef}>{expiryNoticeShown && <SessionExpiryNotice />}</div>
        </AppShell.Footer>

        <AppShell.Main
          id={MAIN_ID}
          tabIndex={-1}
          className={classes.main}
          bg="var(--kyc-color-page)"
        >
          <ServiceUnavailableNotice />
          <Outlet />
        </AppShell.Main>
      </AppShell>
      <ReSignInDialog onSignOut={signOut} />
    </>
  );
}
