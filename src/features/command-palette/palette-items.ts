import type { ReactNode } from 'react';
import { foldForSearch } from '../../../contract/search-text.ts';

/** One choice in the palette: a page, an action or an entity found by the search. */
export interface PaletteItem {
  id: string;
  label: string;
  description?: string;
  icon?: ReactNode;
  /** Words that also find the item, not shown. */
  keywords?: readonly string[];
  onSelect: () => void;
}

export interface PaletteSection {
  id: string;
  title: string;
  items: PaletteItem[];
}

/** What the app's entity search has to show for the current text. */
export interface PaletteSearchState {
  sections: PaletteSection[];
  /** The text changed and its results are not in yet. */
  pending: boolean;
  error?: string | undefined;
}

/**
 * Commands whose label, description or keywords contain every word typed, compared as the server's
 * search compares text (case, accents and typographic punctuation ignored).
 */
export function filterSections(sections: PaletteSection[], query: string): PaletteSection[] {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return sections;
  return sections
    .map((section) => ({
      ...section,
      items: section.items.filter((item) => {
        const text = foldForSearch(
          [item.label, item.description ?? '', ...(item.keywords ?? [])].join(' '),
        );
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((section) => section.items.length > 0);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string) => UUID.test(text);

/**
 * Text that may be an entity's ID: a UUID, or one word of 6 to 100 characters with a digit (names
 * rarely have digits; a gateway's upstream IDs need not be UUIDs).
 */
export function looksLikeId(text: string): boolean {
  if (isUuid(text)) return true;
  return /^[^\s/?#\\]{6,100}$/.test(text) && /\d/.test(text) && !/\p{Cc}/u.test(text);
}
