import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from './dispatch';
import { Studio } from './studio';

describe('choosing where to save', () => {
  it('asks the desktop door, with the extensions and whether a folder is wanted', async () => {
    const asked: unknown[] = [];
    const studio = new Studio({
      door: 'electron',
      resourcesDir: join(process.cwd(), 'resources'),
      pickSavePath: async (request) => {
        asked.push(request);
        return request.folder ? '/home/me/dataset' : null;
      },
    });
    expect(await dispatch(studio, 'dialog.pickSavePath', { title: 'Export the report', defaultPath: 'r.html', extensions: ['html', 'json'] })).toEqual({ ok: true, value: { path: null } });
    expect(await dispatch(studio, 'dialog.pickSavePath', { title: 'Export the dataset into', folder: true })).toEqual({ ok: true, value: { path: '/home/me/dataset' } });
    expect(asked).toEqual([
      { title: 'Export the report', defaultPath: 'r.html', extensions: ['html', 'json'], folder: false },
      { title: 'Export the dataset into', defaultPath: '', extensions: [], folder: true },
    ]);
  });

  it('tells a browser that its exports download instead', async () => {
    const studio = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
    const refused = await dispatch(studio, 'dialog.pickSavePath', { title: 'Export to' });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/in a browser, exports download/) } });
  });
});
