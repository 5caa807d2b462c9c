import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DOMAINS } from '../common/trajectory/model';
import { loadDomainTemplates, loadSystemPrompt } from './template-files';

const builtinDir = fileURLToPath(new URL('../../resources/prompts', import.meta.url));
const made: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'worldloom-prompts-'));
  made.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('built-in domain templates', () => {
  it('exist for every domain, hide their editor comment, and ask for think + predicted_observation', async () => {
    const { templates, problems } = await loadDomainTemplates({ builtinDir });
    expect(problems).toEqual([]);
    for (const domain of DOMAINS) {
      const t = templates[domain];
      expect(t.fromUserDir).toBe(false);
      expect(t.text.startsWith('<!--')).toBe(false);
      expect(t.text).toContain('<think>');
      expect(t.text).toContain('<predicted_observation>');
      expect(t.text).toContain('{{world_spec}}');
      expect(t.text).toContain('{{perturbation}}');
    }
  });

  it('fill to clean prompts with and without the optional sections', async () => {
    for (const domain of DOMAINS) {
      const bare = await loadSystemPrompt(domain, { builtinDir });
      expect(bare).not.toMatch(/\{\{|\}\}/);
      expect(bare).not.toMatch(/\n{3,}/);
      expect(bare).not.toContain('Facts of this world');
      const full = await loadSystemPrompt(domain, { builtinDir }, {
        worldSpec: 'The year is 2091.',
        initialState: 'READY',
        controlInstruction: 'Make it fail.',
      });
      expect(full).not.toMatch(/\{\{|\}\}/);
      expect(full).not.toMatch(/\n{3,}/);
      expect(full).toContain('The year is 2091.');
      expect(full.endsWith('Make it fail.')).toBe(true);
      // Filled in place, not appended a second time.
      expect(full).not.toContain('## World specification');
    }
  });
});

describe('a user prompt folder', () => {
  it('overrides the built-in template of the domains it has and reports files it skipped', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'terminal.md'), '<!-- mine -->\nYou are my shell. {{world_spec}}');
    await writeFile(join(dir, 'terminl.md'), 'typo');
    await writeFile(join(dir, 'web.md'), '   ');
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const { templates, problems } = await loadDomainTemplates({ builtinDir, userDir: dir });
    expect(templates.terminal).toMatchObject({ text: 'You are my shell. {{world_spec}}', fromUserDir: true });
    expect(templates.web.fromUserDir).toBe(false);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^terminl\.md: not a domain name/);
    expect(problems[1]).toMatch(/^web\.md: empty/);
    expect(await loadSystemPrompt('terminal', { builtinDir, userDir: dir }, { worldSpec: 'On Mars.' })).toBe(
      'You are my shell. On Mars.',
    );
  });

  it('that does not exist gives an error naming it', async () => {
    const dir = join(await tempDir(), 'missing');
    await expect(loadDomainTemplates({ builtinDir, userDir: dir })).rejects.toThrow(/Cannot read the prompt folder .*missing.*ENOENT/);
  });

  it('cannot hide a missing built-in template', async () => {
    const dir = await tempDir();
    await expect(loadDomainTemplates({ builtinDir: dir })).rejects.toThrow(/built-in prompt template for the mcp domain is missing/);
  });
});
