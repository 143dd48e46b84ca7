/**
 * The indexes into `values` of a longest strictly increasing run of them (patience sorting,
 * O(n log n)): comparing two orders of the same blocks, those whose positions it keeps stayed in
 * place, every other one moved.
 */
export function longestIncreasingRun(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tails[middle] as number] as number) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] as number;
    tails[low] = index;
  });
  const kept = new Set<number>();
  for (let index = tails.at(-1) ?? -1; index >= 0; index = previous[index] as number) kept.add(index);
  return kept;
}
