// The generation-settings slice's state; its actions are in ../generation-settings.ts.
import type { StateCreator } from 'zustand';
import type { GenerationSettings } from '../../../../src-main/common/contract/simulation';
import type { StudioStore } from '../studio';

export interface GenerationSettingsState {
  settings: GenerationSettings | null;
}

export const createGenerationSettingsSlice: StateCreator<StudioStore, [], [], { generationSettings: GenerationSettingsState }> = () => ({
  generationSettings: { settings: null },
});
