// The layer order of src-main/ (LAYERS in eslint.config.mjs) is enforced by lint: these run
// ESLint itself, with the project's own config, on small files that break the order and on
// files that keep it, and check that docs/architecture.md states the same order and that every folder
// of src-main/ has its place in it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../eslint.config.mjs';
import { PROJECT_ROOT } from './testing/paths';

const eslint = new ESLint({ cwd: PROJECT_ROOT });

/** The layer rule's messages for `code` as if it were the file at `path`. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(PROJECT_ROOT, path) });
  return result!.messages.filter((m) => m.ruleId === 'worldloom/allowed-imports').map((m) => m.message);
}

describe('the layer order', () => {
  it('fails lint on an import of a higher layer, naming the order', async () => {
    const errors = await layerErrors('src-main/simulation/uses-the-studio.ts', "import type { Studio } from '../service/studio';\nexport type S = Studio;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/'\.\.\/service\/studio' \(src-main\/service\/studio\) is outside/);
    expect(errors[0]).toMatch(/LAYERS in eslint\.config\.mjs/);
  });

  it('fails lint on an import within one layer, and on electron outside the desktop door', async () => {
    expect(await layerErrors('src-main/reality/scores.ts', "export { scoreRun } from '../evaluation/scores';\n")).toHaveLength(1);
    expect(await layerErrors('src-main/service/window.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([expect.stringMatching(/Package 'electron' is not for this folder/)]);
  });

  it('passes imports of lower layers, and test doubles in tests only', async () => {
    expect(await layerErrors('src-main/simulation/reads.ts', "import type { WorkspaceStore } from '../store/workspace-store';\nexport type W = WorkspaceStore;\n")).toEqual([]);
    expect(await layerErrors('src-main/simulation/reads.test.ts', "import { RESOURCES_DIR } from '../testing/paths';\nexport const r = RESOURCES_DIR;\n")).toEqual([]);
    expect(await layerErrors('src-main/simulation/reads.ts', "import { RESOURCES_DIR } from '../testing/paths';\nexport const r = RESOURCES_DIR;\n")).toHaveLength(1);
    // A test holds to its layer too: one that drives the core through the Studio lives in service/.
    expect(await layerErrors('src-main/simulation/drives.test.ts', "import type { Studio } from '../service/studio';\nexport type S = Studio;\n")).toHaveLength(1);
    expect(await layerErrors('src-main/service/drives.test.ts', "import type { Studio } from './studio';\nexport type S = Studio;\n")).toEqual([]);
  });

  it('names every folder of src-main/, and the architecture page states the same order', () => {
    const folders = readdirSync(join(PROJECT_ROOT, 'src-main')).filter((f) => statSync(join(PROJECT_ROOT, 'src-main', f)).isDirectory());
    expect(folders.filter((f) => f !== 'testing').sort()).toEqual(LAYERS.flat().sort());
    const architecture = readFileSync(join(PROJECT_ROOT, 'docs', 'architecture.md'), 'utf8');
    const stated = /\n {4}(common →[^`]*?)\n\n/.exec(architecture)?.[1]?.replace(/\s+/g, ' ');
    expect(stated).toBe(LAYERS.map((layer) => layer.join(', ')).join(' → '));
  });
});
