import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DOMAINS } from '../common/trajectory/model';
import { worldModelSystemPrompt } from '../common/prompt/world-model-messages';
import { loadDomainTemplate } from './template-files';

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
    for (const domain of DOMAINS) {
      const t = await loadDomainTemplate(domain, { builtinDir });
      expect(t.file).toBe(join(builtinDir, `${domain}.md`));
      expect(t.text.startsWith('<!--')).toBe(false);
      expect(t.text).toContain('<think>');
      expect(t.text).toContain('<predicted_observation>');
      expect(t.text).toContain('{{world_spec}}');
      expect(t.text).toContain('{{perturbation}}');
    }
  });

  it('fill to clean prompts with and without the optional sections', async () => {
    for (const domain of DOMAINS) {
      const { text: systemPrompt } = await loadDomainTemplate(domain, { builtinDir });
      const bare = worldModelSystemPrompt({ systemPrompt });
      expect(bare).not.toMatch(/\{\{|\}\}/);
      expect(bare).not.toMatch(/\n{3,}/);
      expect(bare).not.toContain('Facts of this world');
      const full = worldModelSystemPrompt({
        systemPrompt,
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

describe('a missing built-in template', () => {
  it('is an error that names the domain and says to reinstall', async () => {
    const dir = await tempDir();
    await expect(loadDomainTemplate('mcp', { builtinDir: dir })).rejects.toThrow(/built-in prompt template for the mcp domain is missing or empty .*Reinstall Worldloom/);
  });
});
