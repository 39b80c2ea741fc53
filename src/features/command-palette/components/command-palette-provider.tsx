import { useDisclosure } from '@mantine/hooks';
import { IconKeyboard } from '@tabler/icons-react';
import { createSpotlight } from '@mantine/spotlight';
import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from 'react';
import { CommandPaletteContext } from '../hooks/use-command-palette.ts';
import { useGlobalShortcuts } from '../hooks/use-global-shortcuts.ts';
import type { PaletteSearchState, PaletteSection } from '../palette-items.ts';

// Both dialogs load on first use: the signed-in shell renders without Spotlight and its styles.
const PaletteDialog = lazy(() =>
  import('./palette-dialog.tsx').then((module) => ({ default: module.PaletteDialog })),
);
const ShortcutsHelpDialog = lazy(() =>
  import('./shortcuts-help-dialog.tsx').then((module) => ({ default: module.ShortcutsHelpDialog })),
);

export interface CommandPaletteProviderProps {
  query: string;
  onQueryChange: (query: string) => void;
  commands: PaletteSection[];
  search: PaletteSearchState;
  children: ReactNode;
}

/**
 * The palette, the shortcuts help and their keys for everything under it; the app supplies the
 * commands and the entity search, so this feature needs no other.
 */
export function CommandPaletteProvider({
  query,
  onQueryChange,
  commands,
  search,
  children,
}: CommandPaletteProviderProps) {
  // One store per mounted shell, so nothing stays open across sign-outs or tests.
  const [[store, palette]] = useState(createSpotlight);
  const [helpOpened, help] = useDisclosure(false);
  // Each dialog mounts at its first opening and stays, so its close transition still plays.
  const [paletteWanted, setPaletteWanted] = useState(false);
  const [helpWanted, setHelpWanted] = useState(false);
  // Where focus goes back to when the help closes, also when it was opened from the palette.
  const returnTo = useRef<HTMLElement | null>(null);
  const controls = useMemo(() => {
    const remember = () => {
      const active = document.activeElement;
      if (active instanceof HTMLElement && !active.closest('[role="dialog"]'))
        returnTo.current = active;
    };
    return {
      openPalette: () => {
        remember();
        setPaletteWanted(true);
        help.close();
        palette.open();
      },
      openHelp: () => {
        remember();
        setHelpWanted(true);
        palette.close();
        help.open();
      },
    };
  }, [help, palette]);
  useGlobalShortcuts(controls);
  const helpSection: PaletteSection = {
    id: 'help',
    title: 'Help',
    items: [
      {
        id: 'shortcuts',
        label: 'Keyboard shortcuts',
        description: 'The keys that work everywhere',
        icon: <IconKeyboard size={20} stroke={1.5} aria-hidden />,
        keywords: ['help', 'keys', 'hotkeys', '?'],
        onSelect: controls.openHelp,
      },
    ],
  };

  return (
    <CommandPaletteContext value={controls}>
      {children}
      <Suspense fallback={null}>
        {paletteWanted ? (
          <PaletteDialog
            store={store}
            query={query}
            onQueryChange={onQueryChange}
            onClose={palette.close}
            commands={[...commands, helpSection]}
            search={search}
          />
        ) : null}
        {helpWanted ? (
          <ShortcutsHelpDialog
            opened={helpOpened}
            onClose={() => {
              help.close();
              returnTo.current?.focus();
            }}
          />
        ) : null}
      </Suspense>
    </CommandPaletteContext>
  );
}
