// The exact-prompt slice: the prompt a simulated node was produced from, fetched when the
// inspector's "Show the exact prompt" is opened, for one node at a time.
import type { ExactPrompt } from '../../../src-main/common/contract/simulation';
import { call } from '../api/client';
import { areaHook } from './ui-store';

export const useExactPrompt = areaHook('exactPrompt');
const set = useExactPrompt.setState;
const get = useExactPrompt.getState;

export async function loadExactPrompt(nodeId: string): Promise<void> {
  if (get().nodeId === nodeId && get().prompt) return;
  set({ nodeId, prompt: null, error: null });
  try {
    const prompt = await call('simulate.prompt', { nodeId });
    if (get().nodeId === nodeId) set({ prompt });
  } catch (err) {
    if (get().nodeId === nodeId) set({ error: (err as Error).message });
  }
}

/** The messages as a chat `messages` JSON array, the form most tools take them in. */
export function messagesAsJson(prompt: ExactPrompt): string {
  return JSON.stringify(prompt.messages, null, 2);
}
