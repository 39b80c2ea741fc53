/** Apple keyboards say ⌘ where others say Ctrl; `mod` in a hotkey means whichever the platform uses. */
export function isApplePlatform(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform);
}

/** How the palette's shortcut is written on this machine, key by key. */
export function paletteKeys(): string[] {
  return [isApplePlatform() ? '⌘' : 'Ctrl', 'K'];
}

export interface Shortcut {
  /** Alternatives, each a list of keys pressed together. */
  keys: string[][];
  description: string;
}

/** Every shortcut of the console, as the help dialog lists them. */
export function shortcuts(): Shortcut[] {
  return [
    {
      keys: [paletteKeys()],
      description:
        'Open the command palette: jump to an entity by name or ID, or to a page (works in text fields too)',
    },
    { keys: [['?']], description: 'Show these shortcuts (not while typing in a field)' },
    { keys: [['↑'], ['↓']], description: 'Move through the palette’s results' },
    { keys: [['Enter']], description: 'Open the selected result' },
    { keys: [['Esc']], description: 'Close the palette or a dialog' },
    {
      keys: [[isApplePlatform() ? '⌘' : 'Ctrl', 'Enter']],
      description: 'Send a note (in the notes box of an entity page)',
    },
  ];
}

/** The hotkeys `useHotkeys` listens for (Mantine's notation). */
export const HOTKEYS = {
  palette: 'mod + K',
  // Shift is how most layouts type `?`; the bare form covers layouts that type it without Shift.
  help: ['shift + ?', '?'],
} as const;
