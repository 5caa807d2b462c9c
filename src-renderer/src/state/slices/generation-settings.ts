// The generation-settings slice's state; its actions are in ../generation-settings.ts.
import type { StateCreator } from 'zustand';
import type { GenerationSettings } from '../../../../src-main/common/contract/simulation';
import type { UiStore } from '../ui-store';

export interface GenerationSettingsState {
  settings: GenerationSettings | null;
}

export const createGenerationSettingsSlice: StateCreator<UiStore, [], [], { generationSettings: GenerationSettingsState }> = () => ({
  generationSettings: { settings: null },
});
