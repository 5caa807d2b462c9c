import { describe, expect, it } from 'vitest';
import { incompleteness, parseModelOutput, parsePartialOutput } from './model-output';

describe('parseModelOutput', () => {
  it('takes plain text as the observation', () => {
    expect(parseModelOutput('total 0\n-rw-r--r-- 1 u u 0 a.txt\n')).toEqual({
      observation: 'total 0\n-rw-r--r-- 1 u u 0 a.txt',
      reasoning: null,
    });
  });

  it('keeps reasoning apart from the tagged observation', () => {
    const text = '<think>\nls lists the file.\n</think>\n<predicted_observation>\na.txt\n</predicted_observation>';
    expect(parseModelOutput(text)).toEqual({ observation: 'a.txt', reasoning: 'ls lists the file.' });
  });

  it('joins several think blocks and takes the remaining text when there is no observation tag', () => {
    const text = '<think>one</think>\nfirst line\n<think>two</think>second line';
    expect(parseModelOutput(text)).toEqual({ observation: 'first line\nsecond line', reasoning: 'one\n\ntwo' });
  });

  it('takes the last observation block', () => {
    const text =
      '<predicted_observation>draft</predicted_observation>\n<predicted_observation>final</predicted_observation>\ntrailing';
    expect(parseModelOutput(text).observation).toBe('final');
  });

  it('lets an unclosed final observation block run to the end', () => {
    expect(parseModelOutput('<think>r</think><predicted_observation>\nline 1\nline 2').observation).toBe('line 1\nline 2');
  });

  it('treats everything after an unclosed <think> as reasoning', () => {
    expect(parseModelOutput('<think>still thinking about it')).toEqual({ observation: '', reasoning: 'still thinking about it' });
  });

  it('ends an unclosed <think> where the observation begins', () => {
    expect(parseModelOutput('<think>reasoning\n<predicted_observation>out</predicted_observation>')).toEqual({
      observation: 'out',
      reasoning: 'reasoning',
    });
  });

  it('keeps an observation drafted inside a closed think block as reasoning', () => {
    const text = '<think>maybe <predicted_observation>A</predicted_observation>? no.</think><predicted_observation>B</predicted_observation>';
    expect(parseModelOutput(text)).toEqual({
      observation: 'B',
      reasoning: 'maybe <predicted_observation>A</predicted_observation>? no.',
    });
  });

  it('reads a closing </think> with no opening as reasoning pre-filled by the chat template', () => {
    expect(parseModelOutput('the user ran ls\n</think>\n\nfile.txt')).toEqual({
      observation: 'file.txt',
      reasoning: 'the user ran ls',
    });
  });

  it('survives repeated and stray tags', () => {
    const text =
      '<think><think>r</think></think><predicted_observation><predicted_observation>X</predicted_observation></predicted_observation>';
    expect(parseModelOutput(text)).toEqual({ observation: 'X', reasoning: 'r' });
  });

  it('takes the text before a closing observation tag whose opening is missing', () => {
    expect(parseModelOutput('<think>r</think>\nout\n</predicted_observation>').observation).toBe('out');
  });

  it('keeps <think> literally when the environment prints it inside the observation', () => {
    expect(parseModelOutput('<predicted_observation>$ cat t.txt\n<think>x</think>\n</predicted_observation>').observation).toBe(
      '$ cat t.txt\n<think>x</think>',
    );
  });

  it('strips the observation heading the model copies from earlier turns', () => {
    expect(parseModelOutput('<think>r</think>\n**Environment Observation:**\n  indented output\n').observation).toBe(
      '  indented output',
    );
    expect(parseModelOutput('<predicted_observation>**Environment Observation:** ok</predicted_observation>').observation).toBe(
      'ok',
    );
  });

  it('accepts tags in any letter case', () => {
    expect(parseModelOutput('<THINK>r</THINK><Predicted_Observation>o</Predicted_Observation>')).toEqual({
      observation: 'o',
      reasoning: 'r',
    });
  });
});

describe('parsePartialOutput', () => {
  const full = '<think>The file exists.</think>\n<predicted_observation>\n**Environment Observation:**\nhello\nworld\n</predicted_observation>';

  it('shows reasoning and observation so far at every prefix, and matches the final parse at the end', () => {
    for (let i = 0; i <= full.length; i++) {
      const partial = parsePartialOutput(full.slice(0, i));
      // Never a fragment of a tag or of the heading in what the user sees.
      expect(partial.observation).not.toMatch(/<|\*\*/);
      expect(partial.reasoning ?? '').not.toMatch(/</);
      // Text only grows while streaming.
      if (i > 0) {
        const before = parsePartialOutput(full.slice(0, i - 1));
        expect(partial.observation.startsWith(before.observation.trimEnd())).toBe(true);
      }
    }
    expect(parsePartialOutput(full)).toEqual({ ...parseModelOutput(full), reasoningOpen: false, observationOpen: false });
  });

  it('says when the stream is inside reasoning', () => {
    expect(parsePartialOutput('<think>The fi')).toEqual({ observation: '', reasoning: 'The fi', reasoningOpen: true, observationOpen: false });
    expect(parsePartialOutput('<think>done</think><predicted_observation>hel')).toEqual({
      observation: 'hel',
      reasoning: 'done',
      reasoningOpen: false,
      observationOpen: true,
    });
  });

  it('holds back a tag cut in half', () => {
    expect(parsePartialOutput('<think>r</thi')).toMatchObject({ reasoning: 'r', reasoningOpen: true });
    expect(parsePartialOutput('<think>r</think><predicted_obs').observation).toBe('');
    expect(parsePartialOutput('a < b').observation).toBe('a < b');
  });
});

describe('incompleteness', () => {
  it('counts only a length cut, and says where it fell', () => {
    expect(incompleteness('<think>still weighing whether ls', 'length')).toBe('reasoning');
    // In-process output of a template that opened the think block starts with the tag too (engine.ts).
    expect(incompleteness('<think>\n', 'length')).toBe('reasoning');
    expect(incompleteness('<think>done</think>\n\n', 'length')).toBe('no-observation');
    expect(incompleteness('<think>done</think><predicted_observation>\nfile1\nfi', 'length')).toBe('observation');
    // A finished answer, however short, or an untagged one that cannot be told from finished.
    expect(incompleteness('<think>done</think>', 'eos')).toBeNull();
    expect(incompleteness('<think>done</think><predicted_observation>a</predicted_observation>', 'length')).toBeNull();
    expect(incompleteness('total 0\ndrwxr', 'length')).toBeNull();
  });
});
