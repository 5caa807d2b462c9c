import { describe, expect, it } from 'vitest';
import { areaHook, useUiStore } from './ui-store';

const simulation = areaHook('simulation');
const compare = areaHook('compare');

describe('the one studio store', () => {
  it('holds every area under its own key, read and written through that area’s hook', () => {
    compare.setState({ step: 3 });
    expect(useUiStore.getState().compare.step).toBe(3);
    expect(compare.getState()).toBe(useUiStore.getState().compare);
    // The rest of the area is kept: setState merges into the slice, as a store of its own did.
    expect(compare.getState().sandboxes).toEqual([]);
    compare.setState((s) => ({ step: s.step + 1 }));
    expect(compare.getState().step).toBe(4);
  });

  it('leaves every other area and the workspace fields as they were when one area changes', () => {
    useUiStore.setState({ selectedNodeId: 'n1', collapsed: new Set(['a']) });
    const before = useUiStore.getState();
    simulation.setState({ reasoningExpanded: !before.simulation.reasoningExpanded });
    const after = useUiStore.getState();
    expect(after.simulation).not.toBe(before.simulation);
    expect(after.simulation.reasoningExpanded).toBe(!before.simulation.reasoningExpanded);
    // What the tree selects is the same object, so its narrow selectors see no change while tokens stream.
    expect(after.collapsed).toBe(before.collapsed);
    expect(after.tree).toBe(before.tree);
    expect(after.selectedNodeId).toBe('n1');
    for (const key of ['compare', 'dataset', 'evaluation', 'exactPrompt', 'generationSettings', 'nodeRecords', 'perturbation'] as const) {
      expect(after[key]).toBe(before[key]);
    }
  });
});
