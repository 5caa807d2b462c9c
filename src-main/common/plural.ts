// Counts in words: "1 step", "4 samples", "1 trajectory". One helper for every door, so no
// message says "Ran 1 steps" or "from 1 trajectories".

/** `count` and the noun agreeing with it; `many` for nouns whose plural is not noun + "s". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
