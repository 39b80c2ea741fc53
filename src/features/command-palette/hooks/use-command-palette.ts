import { createContext, useContext } from 'react';

export interface CommandPaletteControls {
  openPalette: () => void;
  openHelp: () => void;
}

export const CommandPaletteContext = createContext<CommandPaletteControls | null>(null);

/** Opens the palette or the shortcuts help from anywhere under CommandPaletteProvider. */
export function useCommandPalette(): CommandPaletteControls {
  const controls = useContext(CommandPaletteContext);
  if (!controls) throw new Error('useCommandPalette needs a CommandPaletteProvider above it');
  return controls;
}
