import { ActionIcon, Button, Kbd, Tooltip } from '@mantine/core';
import { IconKeyboard, IconSearch } from '@tabler/icons-react';
import { useCommandPalette } from '../hooks/use-command-palette.ts';
import { paletteKeys } from '../shortcuts.ts';

const PALETTE_KEYSHORTCUTS = 'Control+K Meta+K';

/**
 * The header's way into the palette: a search-like button with its keys on wide screens, an icon
 * below 88em, where the navigation (with Reviews and the auditors' Audit log) needs the room.
 */
export function PaletteButton() {
  const { openPalette } = useCommandPalette();
  const keys = paletteKeys();
  return (
    <>
      <Button
        variant="default"
        color="gray"
        fw={400}
        visibleFrom="xl"
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <Kbd size="xs" aria-hidden>
            {keys.join(' ')}
          </Kbd>
        }
        aria-keyshortcuts={PALETTE_KEYSHORTCUTS}
        onClick={openPalette}
      >
        Jump to…
      </Button>
      <ActionIcon
        variant="default"
        size="md"
        hiddenFrom="xl"
        aria-label="Jump to…"
        aria-keyshortcuts={PALETTE_KEYSHORTCUTS}
        onClick={openPalette}
      >
        <IconSearch size={18} aria-hidden />
      </ActionIcon>
    </>
  );
}

/** Opens the list of shortcuts, as `?` does. */
export function ShortcutsButton() {
  const { openHelp } = useCommandPalette();
  return (
    <Tooltip label="Keyboard shortcuts (?)">
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        visibleFrom="sm"
        aria-label="Keyboard shortcuts"
        aria-keyshortcuts="Shift+?"
        onClick={openHelp}
      >
        <IconKeyboard size={20} stroke={1.5} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
