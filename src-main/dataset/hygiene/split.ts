// Train/validation split by trajectory: every example of a trajectory lands in the same
// split, so no history, path or near-identical sibling leaks from train into
// validation. Seeded: the same seed and the same trajectories give the same split.
import { mulberry32 } from '../../common/seeded-random';
import type { Split } from '../example';

/**
 * Assigns each trajectory to a split. `trainFraction` 1 puts everything in train; below
 * 1, both splits get at least one trajectory when there are two or more.
 */
export function splitTrajectories(trajectoryIds: readonly string[], trainFraction: number, seed: number): Map<string, Split> {
  // Sorted first, so the split depends on which trajectories are chosen, not on the order they were read.
  const ids = [...new Set(trajectoryIds)].sort();
  const random = mulberry32(seed);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  let train = Math.round(ids.length * trainFraction);
  if (trainFraction < 1 && ids.length >= 2) train = Math.min(Math.max(train, 1), ids.length - 1);
  if (trainFraction >= 1) train = ids.length;
  const splits = new Map<string, Split>();
  ids.forEach((id, i) => splits.set(id, i < train ? 'train' : 'validation'));
  return splits;
}
