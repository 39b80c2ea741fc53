import {
  IconBuildingPlus,
  IconChecklist,
  IconHistory,
  IconListDetails,
  IconLogout,
  IconSearch,
  IconUserShare,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { auditQueries } from '../features/audit/api/audit-queries.ts';
import { useSignOut } from '../features/auth/hooks/use-sign-out.ts';
import { useCapabilities } from '../features/capabilities/api/capabilities-queries.ts';
import { CommandPaletteProvider } from '../features/command-palette/components/command-palette-provider.tsx';
import type { PaletteSection } from '../features/command-palette/palette-items.ts';
import { entityQueries } from '../lib/entity-queries.ts';
import { reviewQueries } from '../features/reviews/api/review-queries.ts';
import { useEntityPaletteSearch } from './command-palette-search.tsx';
import { PaletteEntityProvider, usePaletteEntity, type PaletteEntity } from './palette-entity.tsx';
import { paths } from '../lib/paths.ts';
import { useCanAct } from './use-can-act.ts';

// Loaded when the palette's "Assign to…" is first chosen.
const AssignToDialog = lazy(() =>
  import('../features/assignment/components/assign-to-dialog.tsx').then((module) => ({
    default: module.AssignToDialog,
  })),
);

const icon = (Icon: typeof IconSearch) => <Icon size={20} stroke={1.5} aria-hidden />;

/** The command palette of the signed-in console: pages, actions and every entity by name or ID. */
export function AppCommandPalette({ children }: { children: ReactNode }) {
  return (
    <PaletteEntityProvider>
      <PaletteWithCommands>{children}</PaletteWithCommands>
    </PaletteEntityProvider>
  );
}

function PaletteWithCommands({ children }: { children: ReactNode }) {
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const search = useEntityPaletteSearch(query, (to) => void navigate(to));
  const [assigning, setAssigning] = useState<PaletteEntity | null>(null);
  // An assignment shows on the entity's page, in the queue and in the entity's Activity.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: entityQueries.all() }),
      queryClient.invalidateQueries({ queryKey: reviewQueries.all() }),
      queryClient.invalidateQueries({ queryKey: auditQueries.all() }),
    ]);
  return (
    <CommandPaletteProvider
      query={query}
      onQueryChange={setQuery}
      commands={useCommands((to) => void navigate(to), setAssigning)}
      search={search}
    >
      {children}
      {assigning ? (
        <Suspense fallback={null}>
          <AssignToDialog
            opened
            onClose={() => setAssigning(null)}
            entityId={assigning.id}
            entityName={assigning.name}
            onAssigned={refresh}
          />
        </Suspense>
      ) : null}
    </CommandPaletteProvider>
  );
}

function useCommands(
  go: (to: string) => void,
  assign: (entity: PaletteEntity) => void,
): PaletteSection[] {
  const entity = usePaletteEntity();
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
  const onEntity: PaletteSection | undefined =
    entity && capabilities?.features.assignment && canAct
      ? {
          id: 'entity',
          title: 'This entity',
          items: [
            {
              id: 'assign-to',
              label: `Assign ${entity.name} to…`,
              description: 'Choose the reviewer who works on it',
              icon: icon(IconUserShare),
              keywords: ['assign', 'assign to', 'reviewer', 'owner', 'case'],
              onSelect: () => assign(entity),
            },
          ],
        }
      : undefined;
  return onEntity ? [onEntity, pages, account] : [pages, account];
}
