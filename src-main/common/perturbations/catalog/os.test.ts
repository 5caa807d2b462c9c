import { describe, expect, it } from 'vitest';
import { fixture, perturb } from '../../../testing/perturbation-fixtures';

const desk = fixture('os-writer.tsv');
const rows = (text: string) => text.trimEnd().split('\n').map((l) => l.split('\t'));
const names = (text: string) => rows(text).map((r) => r[1]);

describe('os perturbations', () => {
  it('every transform keeps the seven tab-separated columns and puts the new window first', () => {
    for (const id of ['os.elevation-prompt', 'os.update-notification', 'os.focus-stolen', 'os.low-battery', 'os.file-locked', 'os.disk-full']) {
      const out = perturb(id);
      expect(rows(out).every((r) => r.length === 7), id).toBe(true);
      expect(out.split('\n')[0]).toBe(desk.split('\n')[0]);
      expect(out.split('\n')[1], id).not.toContain('report.odt - LibreOffice Writer');
    }
  });

  it('elevation prompt: polkit for the program run with sudo; UAC alone on the secure desktop', () => {
    const polkit = perturb('os.elevation-prompt', { action: 'sudo apt install gimp' });
    expect(rows(polkit)[1]).toEqual(['dialog', 'Authentication Required', '', 'gnome-shell', '', '(730, 416)', '(460, 248)']);
    expect(names(polkit)).toContain('Authentication is required to run “apt” as the super user.');
    expect(rows(polkit).find((r) => r[0] === 'password-text')?.[1]).toBe('Password');
    expect(names(polkit)).toContain('report.odt - LibreOffice Writer');
    expect(names(perturb('os.elevation-prompt'))).toContain('Authentication is required to change system settings.');
    const uac = perturb('os.elevation-prompt', { params: { platform: 'windows', program: 'Registry Editor' } });
    expect(names(uac)).toEqual(expect.arrayContaining(['User Account Control', 'Do you want to allow this app to make changes to your device?', 'Registry Editor', 'Yes', 'No']));
    expect(uac).not.toContain('LibreOffice');
    expect(names(perturb('os.elevation-prompt', { params: { platform: 'macos', program: 'Installer' } }))).toContain('Installer wants to make changes.');
  });

  it('update notification: Software Updater, or a restart countdown', () => {
    expect(names(perturb('os.update-notification'))).toContain('Updated software is available for this computer. Do you want to install it now?');
    const win = perturb('os.update-notification', { params: { platform: 'windows', restartMinutes: 3 } });
    expect(rows(win)[1]![0]).toBe('notification');
    expect(names(win)).toContain('Your device will restart in 3 minutes to finish installing updates.');
  });

  it('focus stolen: typed text lands in the window that took focus, not in the document', () => {
    const out = perturb('os.focus-stolen', { params: { window: 'Slack' } });
    expect(rows(out)[1]!.slice(0, 2)).toEqual(['frame', 'Slack']);
    expect(rows(out)[2]![2]).toBe('Revenue grew 12% over the last quarter.');
    expect(rows(out).filter((r) => r[2] === 'Revenue grew 12% over the last quarter.')).toHaveLength(1);
    expect(names(out)).toContain('report.odt - LibreOffice Writer');
    const windows = new Set([1, 2, 3, 4, 5, 6].map((seed) => rows(perturb('os.focus-stolen', { seed }))[1]![1]));
    expect(windows.size).toBeGreaterThan(1);
  });

  it('low battery: the percentage and time left in the platform\'s words', () => {
    expect(names(perturb('os.low-battery', { params: { percent: 3, minutesLeft: 6 } }))).toContain('Approximately 6 minutes remaining (3%)');
    expect(names(perturb('os.low-battery', { params: { platform: 'windows' } }))).toContain('5% remaining. You might want to plug in your PC.');
  });

  it('file locked: names the file from the screen or the action, and who holds it', () => {
    expect(names(perturb('os.file-locked'))).toContain("Document file 'report.odt' is locked for editing by:");
    const win = perturb('os.file-locked', { action: 'click "Save" for "C:\\Users\\dana\\budget.xlsx"', params: { platform: 'windows', holder: 'Excel' } });
    expect(names(win)).toContain("The action can't be completed because the file is open in Excel.");
    expect(names(win)).toContain('budget.xlsx');
  });

  it('disk full: the low disk space warning for the volume', () => {
    expect(names(perturb('os.disk-full'))).toContain('The volume “Filesystem root” has only 0 bytes disk space remaining.');
    expect(names(perturb('os.disk-full', { params: { platform: 'windows', volume: 'Data (D:)', freeMb: 12 } }))).toContain(
      'You are running out of disk space on Data (D:). 12 MB free.',
    );
  });
});
