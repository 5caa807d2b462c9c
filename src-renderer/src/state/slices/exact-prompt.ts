// The exact-prompt slice's state; its actions are in ../exact-prompt.ts.
import type { StateCreator } from 'zustand';
import type { ExactPrompt } from '../../../../src-main/common/contract/simulation';
import type { UiStore } from '../ui-store';

export interface ExactPromptState {
  nodeId: string | null;
  prompt: ExactPrompt | null;
  error: string | null;
}

export const createExactPromptSlice: StateCreator<UiStore, [], [], { exactPrompt: ExactPromptState }> = () => ({
  exactPrompt: { nodeId: null, prompt: null, error: null },
});
