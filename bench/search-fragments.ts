import type { Random } from '../server/seed/random.ts';

/**
 * Parts of names as a reviewer types them: 3 to 8 characters from anywhere in a name, a fifth in
 * capitals (accented names among them: ÖSTERREICHISCHE, STRASSE for Straße), all different.
 */
export function searchFragments(random: Random, names: readonly string[], count = 1_000): string[] {
  const fragments = new Set<string>();
  for (let attempt = 0; fragments.size < count && attempt < 100_000; attempt++) {
    const name = random.pick(names);
    const start = random.int(0, Math.max(0, name.length - 3));
    const fragment = name.slice(start, start + random.int(3, 8));
    fragments.add(random.chance(0.2) ? fragment.toUpperCase() : fragment);
  }
  return [...fragments];
}
