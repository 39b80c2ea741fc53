import {
  IconBuildingPlus,
  IconChecklist,
  IconHistory,
  IconListDetails,
  IconLogout,
  IconSearch,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useSignOut } from '../features/auth/hooks/use-sign-out.ts';
import { useCapabilities } from '../features/capabilities/api/capabilities-queries.ts';
import { CommandPaletteProvider } from '../features/command-palette/components/command-palette-provider.tsx';
import type { PaletteSection } from '../features/command-palette/palette-items.ts';
import { useEntityPaletteSearch } from './command-palette-search.tsx';
import { paths } from '../lib/paths.ts';
import { useCanAct } from './use-can-act.ts';

const icon = (Icon: typeof IconSearch) => <Icon size={20} stroke={1.5} aria-hidden />;

/** The command palette of the signed-in console: pages, actions and every entity by name or ID. */
export function AppCommandPalette({ children }: { children: ReactNode }) {
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  const search = useEntityPaletteSearch(query, (to) => void navigate(to));
  return (
    <CommandPaletteProvider
      query={query}
      onQueryChange={setQuery}
      commands={useCommands((to) => void navigate(to))}
      search={search}
    >
      {children}
    </CommandPaletteProvider>
  );
}

function useCommands(go: (to: string) => void): PaletteSection[] {
  const capabilities = useCapabilities();
  const canAct = useCanAct();
  const signOut = useSignOut();
  const signOutEverywhere = useSignOut({ everywhere: true });
  const pages: PaletteSection = {
    id: 'pages',
    title: 'Go to',
    items: [
      ...(capabilities?.features.reviewQueue
        ? [
            {
              id: 'reviews',
              label: 'Review queue',
              description: 'Entities whose review is due',
              icon: icon(IconChecklist),
              keywords: ['reviews', 'due', 'overdue'],
              onSelect: () => go(paths.reviews),
            },
          ]
        : []),
      {
        id: 'entities',
        label: 'Entities',
        description: 'The list of all legal entities and people',
        icon: icon(IconListDetails),
        keywords: ['list', 'browse'],
        onSelect: () => go(paths.entities),
      },
      {
        id: 'search',
        label: 'Search',
        description: 'Find entities by any field',
        icon: icon(IconSearch),
        keywords: ['find'],
        onSelect: () => go(paths.search),
      },
      ...(canAct
        ? [
            {
              id: 'onboard',
              label: 'Onboard legal entity',
              description: 'Create a new legal entity',
              icon: icon(IconBuildingPlus),
              keywords: ['new', 'create', 'add', 'onboarding'],
              onSelect: () => go(paths.onboard),
            },
          ]
        : []),
      ...(capabilities?.account.role === 'auditor'
        ? [
            {
              id: 'audit',
              label: 'Audit log',
              description: 'Every change and decision, by whom and when',
              icon: icon(IconHistory),
              keywords: ['audit', 'trail', 'history'],
              onSelect: () => go(paths.audit),
            },
          ]
        : []),
    ],
  };
  const account: PaletteSection = {
    id: 'account',
    title: 'Account',
    items: [
      {
        id: 'sign-out',
        label: 'Sign out',
        icon: icon(IconLogout),
        keywords: ['log out', 'logout'],
        onSelect: signOut,
      },
      {
        id: 'sign-out-everywhere',
        label: 'Sign out of every session',
        icon: icon(IconLogout),
        keywords: ['log out', 'logout', 'all devices', 'everywhere', 'revoke'],
        onSelect: signOutEverywhere,
      },
    ],
  };
  return [pages, account];
}
