// A small seeded PRNG: the same seed gives the same schedule on every machine and Node version
// (Math.random cannot be seeded). mulberry32: 32 bits of state, plenty for picking faults.

/** Numbers from a seed, always the same sequence for the same seed. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One of `items` (not empty). */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** One of `choices`, each as likely as its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [choice, weight] of choices) {
      at -= weight;
      if (at < 0) return choice;
    }
    const last = choices.at(-1);
    if (!last) throw new Error("weighted pick from an empty list");
    return last[0];
  }
}

/**
 * The seed of round `round` of a run seeded `seed`: a round's schedule depends on these two
 * numbers alone, so one round can be replayed without the ones before it.
 */
export function roundSeed(seed: number, round: number): number {
  let h = (seed ^ Math.imul(round + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
