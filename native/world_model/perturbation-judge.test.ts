// The two readings of "the perturbation shows its condition" in eval.ts, on targets the
// catalog's transform mode makes, as the evaluation makes them.
import { describe, expect, it } from 'vitest';
import { applyTransform, planPerturbation } from '../../src-main/common/perturbations/apply';
import type { SessionDomain } from './paths';
import { conditionShown, exactLinesShown } from './perturbation-judge';

const PROMPT = 'agent@sandbox:~$';

function target(kindId: string, domain: SessionDomain, action: string, real: string): string {
  return applyTransform(planPerturbation({ kindId, mode: 'transform', seed: 7 }), real, { domain, action });
}

describe('whether a perturbation shows its condition', () => {
  it('counts a command-not-found that names another command as the condition, not as its exact lines', () => {
    const real = `/usr/bin/python3\n${PROMPT}`;
    const wanted = target('terminal.command-not-found', 'terminal', 'which python3', real);
    expect(wanted).toContain('which: command not found');
    const wrongName = `bash: rm: command not found\n${PROMPT}`;
    expect(exactLinesShown(wrongName, wanted, real)).toBe(false);
    expect(conditionShown(wrongName, wanted, real, 'which python3')).toBe(true);
    // The real screen again is not the condition under either reading.
    expect(conditionShown(real, wanted, real, 'which python3')).toBe(false);
    expect(exactLinesShown(real, wanted, real)).toBe(false);
  });

  it('frees the file name the action wrote to, but keeps the message of the condition', () => {
    const action = 'echo "helmet" > beacon.dat';
    const wanted = target('terminal.permission-denied', 'terminal', action, PROMPT);
    expect(wanted).toContain('Permission denied');
    expect(conditionShown(`echo: pixel.dat: Permission denied\n${PROMPT}`, wanted, PROMPT, action)).toBe(true);
    expect(conditionShown(`echo: pixel.dat: No such file or directory\n${PROMPT}`, wanted, PROMPT, action)).toBe(false);
    expect(exactLinesShown(wanted, wanted, PROMPT)).toBe(true);
  });

  it('does not count a disk-full line cut off before its message', () => {
    const action = 'mkdir -p project/build && ls project';
    const wanted = target('terminal.disk-full', 'terminal', action, `build\n${PROMPT}`);
    expect(wanted).toContain('No space left on device');
    expect(conditionShown(`mkdir: error writing 'project$`, wanted, `build\n${PROMPT}`, action)).toBe(false);
  });

  it('leaves the numbers of an MCP condition free but not its words', () => {
    const action = '{"name":"read_text_file","arguments":{"path":"/tmp/worldloom-mcp/workspace/todo.md"}}';
    const real = JSON.stringify({ content: [{ type: 'text', text: '# todo\n- write the report\n- send it to the whole team by Friday noon' }] }, null, 2);
    const limited = target('mcp.rate-limited', 'mcp', action, real);
    expect(limited).toContain('429 Too Many Requests');
    const otherNumbers = limited.replace(/\b60\b/g, '100').replace(/\b30 seconds/g, '12 seconds');
    expect(otherNumbers).not.toBe(limited);
    expect(exactLinesShown(otherNumbers, limited, real)).toBe(false);
    expect(conditionShown(otherNumbers, limited, real, action)).toBe(true);
    const notFound = limited.replace(/429 Too Many Requests.*?seconds\./, '404 Not Found: the requested resource does not exist');
    expect(conditionShown(notFound, limited, real, action)).toBe(false);
    // Its `],` and `"isError": true` lines are added too, but any error has them.
    expect(exactLinesShown(notFound, limited, real)).toBe(false);

    const truncated = target('mcp.truncated-result', 'mcp', action, real);
    expect(truncated).toContain('[Response truncated: showing');
    expect(conditionShown(truncated.replace(/showing \d+ of \d+/, 'showing 3 of 999'), truncated, real, action)).toBe(true);
    expect(conditionShown(real, truncated, real, action)).toBe(false);
  });
});
