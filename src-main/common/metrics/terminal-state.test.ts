import { describe, expect, it } from 'vitest';
import { lastPrompt, normalizeCwd, parsePrompt, pwdOutput, terminalConsistency } from './terminal-state';

describe('shell prompts', () => {
  it('reads the common prompt styles', () => {
    expect(parsePrompt('dev@box:~/proj$ ls -la')).toMatchObject({ family: 'user@host', user: 'dev', host: 'box', cwd: '~/proj', sigil: '$', command: 'ls -la', prompt: 'dev@box:~/proj$' });
    expect(parsePrompt('root@4f1c2a:/srv/app# ')).toMatchObject({ user: 'root', cwd: '/srv/app', sigil: '#', command: '' });
    expect(parsePrompt('[ana@fedora tmp]$ make')).toMatchObject({ family: 'bracket', user: 'ana', cwd: 'tmp', command: 'make' });
    expect(parsePrompt('(venv) dev@box:~$ pip list')).toMatchObject({ family: 'user@host', prompt: '(venv) dev@box:~$', command: 'pip list' });
    expect(parsePrompt('ana@mac proj % git status')).toMatchObject({ family: 'user@host', cwd: 'proj', sigil: '%' });
    expect(parsePrompt('/app# cat x')).toMatchObject({ family: 'path', cwd: '/app', command: 'cat x' });
    expect(parsePrompt('$ echo hi')).toMatchObject({ family: 'bare', command: 'echo hi' });
    expect(parsePrompt('total 12')).toBeUndefined();
    expect(parsePrompt('$HOME is set')).toBeUndefined();
  });

  it('takes the last prompt of a screen as its state', () => {
    expect(lastPrompt('a@b:~$ cd /tmp\na@b:/tmp$')?.cwd).toBe('/tmp');
    expect(lastPrompt('no prompt here')).toBeUndefined();
  });

  it('normalizes working directories', () => {
    expect(normalizeCwd('~/src/', 'dev')).toBe('/home/dev/src');
    expect(normalizeCwd('~', 'root')).toBe('/root');
    expect(normalizeCwd('/')).toBe('/');
    expect(pwdOutput('/srv/app\nroot@x:/srv/app#')).toBe('/srv/app');
    expect(pwdOutput('file.txt')).toBeUndefined();
  });
});

describe('terminal consistency', () => {
  const real = 'hello\ndev@box:~/proj/src$';
  it('scores agreeing prompts and directories as 1', () => {
    expect(terminalConsistency('hi\ndev@box:/home/dev/proj/src$', real)).toEqual({ prompt: 1, cwd: 1 });
  });
  it('scores a wrong directory on both metrics', () => {
    // user, host and sigil agree; the directory does not → prompt 3/4, cwd 0.
    expect(terminalConsistency('hello\ndev@box:~/proj$', real)).toEqual({ prompt: 0.75, cwd: 0 });
  });
  it('scores a missing prompt as 0 and leaves out what the real side cannot judge', () => {
    expect(terminalConsistency('hello', real)).toEqual({ prompt: 0, cwd: 0 });
    expect(terminalConsistency('anything', 'output without prompt')).toEqual({});
    expect(terminalConsistency('', '')).toEqual({});
  });
  it('uses pwd output as the working directory when the action was pwd', () => {
    expect(terminalConsistency('/tmp', '/tmp', 'pwd')).toEqual({ cwd: 1 });
    expect(terminalConsistency('/var', '/tmp\nu@h:/tmp$', ' pwd ')).toEqual({ prompt: 0, cwd: 0 });
  });
});
