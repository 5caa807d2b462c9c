import { describe, expect, it } from 'vitest';
import { buildWorldModelMessages, worldModelSystemPrompt, worldSpecText } from './world-model-messages';
import { promptHash } from './prompt-hash';

describe('buildWorldModelMessages', () => {
  it('lays out system prompt, one user/assistant pair per turn, then the new action', () => {
    const messages = buildWorldModelMessages({
      systemPrompt: 'You are a Linux terminal.',
      history: [
        { action: 'pwd', observation: '/home/user' },
        { action: 'ls', observation: 'notes.txt\nsrc' },
      ],
      action: 'cat notes.txt',
    });
    expect(messages).toEqual([
      { role: 'system', content: 'You are a Linux terminal.' },
      { role: 'user', content: '### Turn 1\n**Action:**\npwd' },
      { role: 'assistant', content: '**Environment Observation:**\n/home/user' },
      { role: 'user', content: '### Turn 2\n**Action:**\nls' },
      { role: 'assistant', content: '**Environment Observation:**\nnotes.txt\nsrc' },
      { role: 'user', content: '### Turn 3\n**Action:**\ncat notes.txt' },
    ]);
  });

  it('asks for turn 1 when there is no history', () => {
    const messages = buildWorldModelMessages({ systemPrompt: 'S', history: [], action: 'open settings' });
    expect(messages.map((m) => m.content)).toEqual(['S', '### Turn 1\n**Action:**\nopen settings']);
  });

  it('writes GUI turns as the benchmark does: the task on turn 1, the screen each action is taken on', () => {
    const messages = buildWorldModelMessages({
      systemPrompt: 'You are an Android world model.',
      domain: 'android',
      taskInstruction: 'Open the calendar.',
      initialState: '[0] launcher',
      history: [{ action: 'tap(Calendar)', observation: '[0] calendar month view' }],
      action: 'tap(Oct 28)',
    });
    expect(messages.map((m) => m.content)).toEqual([
      // The initial screen is turn 1's Current State, not a section of the system prompt.
      'You are an Android world model.',
      '### Turn 1\n**Task Instruction:**\nOpen the calendar.\n\n**Current State:**\n[0] launcher\n\n**Action:**\ntap(Calendar)',
      '**Environment Observation:**\n[0] calendar month view',
      '### Turn 2\n**Current State:**\n[0] calendar month view\n\n**Action:**\ntap(Oct 28)',
    ]);
  });

  it('sends imported turns and an imported action prompt exactly as written', () => {
    const raw = '### Turn 1\n**Task Instruction:**\nCount lines.\n\n**Current State:**\nhome screen\n\n**Action:**\nopen(Files)';
    const messages = buildWorldModelMessages({
      systemPrompt: 'S',
      domain: 'os',
      history: [{ action: 'open(Files)', observation: 'files', rawPrompt: raw, rawResponse: '**Environment Observation:**\nfiles\n' }],
      action: 'open(Downloads)',
      actionPrompt: '### Turn 2\n**Current State:**\nfiles\n\n**Action:**\nopen(Downloads)',
    });
    expect(messages.slice(1).map((m) => m.content)).toEqual([raw, '**Environment Observation:**\nfiles\n', '### Turn 2\n**Current State:**\nfiles\n\n**Action:**\nopen(Downloads)']);
  });

  it('sends a plain (imported) system prompt untouched when there is nothing to add', () => {
    const imported = 'Simulate {{ .Values.name }} charts.\n\n';
    expect(worldModelSystemPrompt({ systemPrompt: imported })).toBe(imported);
  });

  it('appends world spec, initial state and control instruction to a prompt without placeholders', () => {
    const text = worldModelSystemPrompt({
      systemPrompt: 'You are a shell.\n',
      worldSpec: { text: 'A mining colony on Europa.', facts: [{ subject: 'hostname', value: 'europa-3' }] },
      initialState: 'user@europa-3:~$',
      controlInstruction: 'The disk is full.',
    });
    expect(text).toBe(
      'You are a shell.\n\n' +
        '## World specification\n\nThe simulated world must agree with these facts:\n\n' +
        'A mining colony on Europa.\n\n- hostname: europa-3\n\n' +
        '## Initial state\n\nBefore the first action the environment looked like this:\n\nuser@europa-3:~$\n\n' +
        '## Control instruction\n\nShape the next observation according to this instruction:\n\nThe disk is full.',
    );
  });

  it('fills a template in place and drops the sections whose value is empty', () => {
    const template =
      'Intro.\n\n{{#world_spec}}\n## World\n{{world_spec}}\n\n{{/world_spec}}## Answer\nUse tags.\n\n' +
      '{{#perturbation}}\n## Instruction\n{{ perturbation }}\n{{/perturbation}}\n';
    expect(worldModelSystemPrompt({ systemPrompt: template })).toBe('Intro.\n\n## Answer\nUse tags.');
    expect(worldModelSystemPrompt({ systemPrompt: template, worldSpec: 'Mars.', controlInstruction: 'Fail.' })).toBe(
      'Intro.\n\n## World\nMars.\n\n## Answer\nUse tags.\n\n## Instruction\nFail.',
    );
  });

  it('keeps dollar signs in values literal', () => {
    expect(worldModelSystemPrompt({ systemPrompt: 'P {{world_spec}}', worldSpec: 'costs $& and $1' })).toBe(
      'P costs $& and $1',
    );
  });

  it('puts the filled system prompt into the messages', () => {
    const [system] = buildWorldModelMessages({
      systemPrompt: 'Env.{{#world_spec}} World: {{world_spec}}{{/world_spec}}',
      history: [],
      action: 'x',
      worldSpec: 'Atlantis',
    });
    expect(system!.content).toBe('Env. World: Atlantis');
  });
});

describe('worldSpecText', () => {
  it('renders prose then facts, and nothing for no spec', () => {
    expect(worldSpecText(null)).toBe('');
    expect(worldSpecText({ text: '', facts: [{ subject: 'currency', value: 'credits' }] })).toBe('- currency: credits');
    expect(worldSpecText('  free text  ')).toBe('free text');
  });
});

describe('promptHash', () => {
  it('is stable, depends on role and content only, and changes with any character', async () => {
    const a = await promptHash([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'A' },
    ]);
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    const withExtraField = [{ content: 'S', role: 'system' as const, extra: 1 }, { role: 'user' as const, content: 'A' }];
    expect(await promptHash(withExtraField)).toBe(a);
    expect(await promptHash([{ role: 'system', content: 'S' }, { role: 'user', content: 'A ' }])).not.toBe(a);
    expect(await promptHash([{ role: 'user', content: 'S' }, { role: 'user', content: 'A' }])).not.toBe(a);
  });
});
