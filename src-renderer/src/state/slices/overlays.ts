// The overlays slice: which modal views (help, sim vs real, a confirmation…) are open, the
// topmost last. Its actions are in ../overlays.ts.
import type { StateCreator } from 'zustand';
import type { UiStore } from '../ui-store';

export interface OverlaysState {
  /** The names of the open overlays, in the order they opened. */
  open: string[];
}

export const createOverlaysSlice: StateCreator<UiStore, [], [], { overlays: OverlaysState }> = () => ({
  overlays: { open: [] },
});
