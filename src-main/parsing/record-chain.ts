// The conversation an agent shows from a file of records that each name the one they follow
// (uuid/parentUuid: Claude Code, Qwen Code): the chain from its newest message back to the root.
// What hangs off that chain is a branch the agent no longer shows (a rewind took it back);
// which of those branches a reader leaves out is its agent's own rule.

/**
 * The uuids on the chain from `leaf` back to its root, or null where the chain cannot be
 * followed (a parent the records lack, a cycle): then no record can be said to be off it.
 */
export function chainBack<T extends { uuid: string }>(leaf: T, byUuid: ReadonlyMap<string, T>, parentOf: (record: T) => string | null): Set<string> | null {
  const chain = new Set<string>();
  for (let record: T | undefined = leaf; record; ) {
    if (chain.has(record.uuid)) return null;
    chain.add(record.uuid);
    const parent = parentOf(record);
    if (parent === null) return chain;
    record = byUuid.get(parent);
  }
  return null;
}
