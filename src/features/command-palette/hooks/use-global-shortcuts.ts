import { useHotkeys } from '@mantine/hooks';
import { HOTKEYS } from '../shortcuts.ts';
import type { CommandPaletteControls } from './use-command-palette.ts';

/** Ctrl/⌘+K from anywhere, text fields included; `?` only when no field is being typed in. */
export function useGlobalShortcuts({ openPalette, openHelp }: CommandPaletteControls) {
  // No ignored tags and contenteditable allowed: the palette is the way out of any field.
  useHotkeys([[HOTKEYS.palette, openPalette]], [], true);
  // Mantine's defaults skip input, textarea, select and contenteditable, where `?` is text.
  useHotkeys(HOTKEYS.help.map((hotkey) => [hotkey, openHelp]));
}
