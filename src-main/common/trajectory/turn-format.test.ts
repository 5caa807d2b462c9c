import { describe, expect, it } from 'vitest';
import { actionFromPrompt, guiBlocksFromPrompt, promptForAction } from './turn-format';

describe('the benchmark turn layout', () => {
  it('writes ### Turn N then **Action:** on the next line, as AgentWorldBench and the model’s training data do', () => {
    expect(promptForAction(3, 'ls -la')).toBe('### Turn 3\n**Action:**\nls -la');
    expect(actionFromPrompt(promptForAction(3, 'ls -la'))).toBe('ls -la');
  });

  it('puts the task and the current state before the action, and reads them back', () => {
    const prompt = promptForAction(1, 'click(42)', { taskInstruction: 'Find the invoice.', currentState: '[1] button "Open"' });
    expect(prompt).toBe('### Turn 1\n**Task Instruction:**\nFind the invoice.\n\n**Current State:**\n[1] button "Open"\n\n**Action:**\nclick(42)');
    expect(guiBlocksFromPrompt(prompt)).toEqual({ taskInstruction: 'Find the invoice.', currentState: '[1] button "Open"' });
    expect(actionFromPrompt(prompt)).toBe('click(42)');
    // Later turns carry the state only; an empty screen is still a state.
    expect(promptForAction(2, 'back()', { currentState: '' })).toBe('### Turn 2\n**Current State:**\n\n\n**Action:**\nback()');
    expect(guiBlocksFromPrompt('### Turn 2\n**Action:**\nls')).toEqual({ taskInstruction: null, currentState: null });
  });
});
