import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSamplingOverrides, writeSamplingOverrides } from './workspace-settings';
import { WorkspaceStore } from './workspace-store';

describe('generation settings kept in the workspace file', () => {
  it('round-trips through a reopen, and reads a value that no longer fits the schema as none', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'wl-settings-')), 'w.worldloom');
    const store = WorkspaceStore.create(path);
    expect(readSamplingOverrides(store)).toEqual({});
    writeSamplingOverrides(store, { maxTokens: 65_536, thinking: false, presencePenalty: 1.5 });
    store.close();
    const reopened = WorkspaceStore.open(path);
    expect(readSamplingOverrides(reopened)).toEqual({ maxTokens: 65_536, thinking: false, presencePenalty: 1.5 });
    expect(() => writeSamplingOverrides(reopened, { maxTokens: 0 })).toThrow();
    reopened.setSetting('generation.sampling', '{"maxTokens": -5}');
    expect(readSamplingOverrides(reopened)).toEqual({});
    reopened.setSetting('generation.sampling', 'not json');
    expect(readSamplingOverrides(reopened)).toEqual({});
    reopened.close();
  });
});
