/** A seeded pseudo-random source: the same seed always yields the same data set. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Whole number in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `count` distinct items in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** A string of `count` random decimal digits. */
  digits(count: number): string;
  /** A version-4-shaped UUID drawn from this source. */
  uuid(): string;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** sfc32 seeded through splitmix32: 128 bits of state, so runs with different seeds do not overlap. */
export function createRandom(seed: number): Random {
  let mix = seed >>> 0;
  const splitmix = () => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();

  const nextUint32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let warmUp = 0; warmUp < 12; warmUp++) nextUint32();

  const next = () => nextUint32() / 4294967296;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('Cannot pick from an empty list.');
    return items[int(0, items.length - 1)] as T;
  };

  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick,
    weighted(entries) {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      const last = entries[entries.length - 1];
      if (!last) throw new Error('Cannot pick from an empty list.');
      return last[0];
    },
    sample(items, count) {
      const pool = [...items];
      const taken: (typeof items)[number][] = [];
      while (taken.length < count && pool.length > 0) {
        taken.push(...pool.splice(int(0, pool.length - 1), 1));
      }
      return taken;
    },
    digits(count) {
      let out = '';
      for (let i = 0; i < count; i++) out += String(int(0, 9));
      return out;
    },
    uuid() {
      let hex = '';
      for (let word = 0; word < 4; word++) {
        const value = nextUint32();
        hex += (HEX[value >>> 24] ?? '') + (HEX[(value >>> 16) & 0xff] ?? '');
        hex += (HEX[(value >>> 8) & 0xff] ?? '') + (HEX[value & 0xff] ?? '');
      }
      const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    },
  };
}
