import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDemoWorkspace } from './demo-workspace';
import { Studio } from './studio';

const resourcesDir = join(process.cwd(), 'resources');

describe('the demo workspace', () => {
  let before: string | undefined;
  let config: string;
  beforeEach(() => {
    before = process.env.WORLDLOOM_CONFIG_DIR;
    config = mkdtempSync(join(tmpdir(), 'wl-demo-'));
    process.env.WORLDLOOM_CONFIG_DIR = config;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.WORLDLOOM_CONFIG_DIR;
    else process.env.WORLDLOOM_CONFIG_DIR = before;
  });

  it('is filled with the recorded sessions on first open and not again on the next', () => {
    const studio = new Studio({ door: 'host', resourcesDir });
    const first = openDemoWorkspace(studio);
    expect(first.path).toBe(join(config, 'demo.worldloom'));
    expect(first.trajectories).toBeGreaterThan(0);
    studio.close();
    expect(openDemoWorkspace(studio).trajectories).toBe(first.trajectories);
    studio.close();
  });

  it('is filled on a later open when the first left it empty', () => {
    const studio = new Studio({ door: 'host', resourcesDir });
    studio.openWorkspace(join(config, 'demo.worldloom'), 'create');
    studio.close();
    expect(openDemoWorkspace(studio).trajectories).toBeGreaterThan(0);
    studio.close();
  });

  it('says where the demo files were expected when they are missing', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'wl-no-resources-'));
    const studio = new Studio({ door: 'host', resourcesDir: elsewhere });
    expect(() => openDemoWorkspace(studio)).toThrow(`The demo trajectories are missing (expected *.jsonl in ${join(elsewhere, 'demo')})`);
    studio.close();
  });
});
