// OS perturbations: the desktop interrupts the agent with system windows (elevation,
// updates, battery, locked files, full disks) or hands focus to another window. Windows
// are added to the desktop accessibility tree (see ./desktop-tree.ts) with the wording of
// each platform's own dialogs.
import { z } from 'zod';
import { defineKind } from '../kind';
import { quotedOf } from './action-hints';
import { dialogWindow, onlyWindow, screenOf, withWindowOnTop } from './desktop-tree';

const platform = z.enum(['linux', 'windows', 'macos']).default('linux').describe('Whose dialogs to show');
const PLATFORM_NAMES = { linux: 'Ubuntu', windows: 'Windows', macos: 'macOS' };

/** The program asking for rights: the param, else what the action runs through sudo/pkexec/runas. */
function programOf(param: string, action: string): string | undefined {
  return param || /\b(?:sudo|pkexec|runas|gksudo)\s+(?:-\S+\s+)*([^\s;|&]+)/.exec(action)?.[1];
}

const elevationPrompt = defineKind({
  id: 'os.elevation-prompt',
  domain: 'os',
  label: 'Elevation prompt',
  description: 'The action needs administrator rights and the system asks for them (polkit, UAC, macOS authorization).',
  params: z.object({
    platform,
    program: z.string().default('').describe('Program asking for rights; empty = the one the action runs with sudo/pkexec/runas, if any'),
    user: z.string().default('agent'),
  }),
  instruction: (p, ctx) =>
    `${programOf(p.program, ctx.action) ? `Running ${programOf(p.program, ctx.action)}` : 'The action'} needs administrator rights, so ${PLATFORM_NAMES[p.platform]} shows its ` +
    { linux: 'polkit "Authentication Required" dialog asking for the password', windows: 'User Account Control prompt ("Do you want to allow this app to make changes to your device?") on the secure desktop, hiding everything else', macos: 'authorization dialog asking for an administrator name and password' }[p.platform] +
    '. Nothing has run yet.',
  transform(observation, p, _rng, ctx) {
    const screen = screenOf(observation);
    const program = programOf(p.program, ctx.action);
    if (p.platform === 'windows') {
      return onlyWindow(
        dialogWindow(screen, {
          title: 'User Account Control',
          app: 'consent.exe',
          body: ['Do you want to allow this app to make changes to your device?', program ?? 'Windows Command Processor', 'Verified publisher: Microsoft Windows'],
          buttons: ['Yes', 'No'],
        }),
      );
    }
    const dialog =
      p.platform === 'linux'
        ? dialogWindow(screen, {
            title: 'Authentication Required',
            app: 'gnome-shell',
            body: [program ? `Authentication is required to run “${program}” as the super user.` : 'Authentication is required to change system settings.', p.user],
            fields: [{ tag: 'password-text', name: 'Password' }],
            buttons: ['Cancel', 'Authenticate'],
          })
        : dialogWindow(screen, {
            title: `${program ?? 'System Settings'} wants to make changes.`,
            app: 'SecurityAgent',
            body: ['Enter your password to allow this.'],
            fields: [{ tag: 'text', name: 'User Name:', text: p.user }, { tag: 'password-text', name: 'Password:' }],
            buttons: ['Cancel', 'OK'],
          });
    return withWindowOnTop(observation, dialog);
  },
});

const updateNotification = defineKind({
  id: 'os.update-notification',
  domain: 'os',
  label: 'Update notification',
  description: 'The system announces updates and offers, or threatens, to restart.',
  params: z.object({ platform, restartMinutes: z.number().int().min(1).default(10) }),
  instruction: (p) =>
    `${PLATFORM_NAMES[p.platform]} shows an update notification on top of the current window` +
    (p.platform === 'linux' ? ': Software Updater offers to install updated software now.' : `, warning that the computer will restart in ${p.restartMinutes} minutes to finish installing updates.`) +
    ' The window underneath is unchanged.',
  transform(observation, p) {
    const screen = screenOf(observation);
    const windows = {
      linux: () =>
        dialogWindow(screen, { title: 'Software Updater', app: 'update-manager', tag: 'frame', body: ['Updated software is available for this computer. Do you want to install it now?'], buttons: ['Settings…', 'Remind Me Later', 'Install Now'] }),
      windows: () =>
        dialogWindow(screen, { title: 'Restart required', app: 'MusNotificationUx.exe', tag: 'notification', body: [`Your device will restart in ${p.restartMinutes} minutes to finish installing updates.`], buttons: ['Restart now', 'Schedule the restart'] }),
      macos: () =>
        dialogWindow(screen, { title: 'Updates Available', app: 'NotificationCenter', tag: 'notification', body: [`Your Mac will restart in ${p.restartMinutes} minutes to install updates.`], buttons: ['Later', 'Restart Now'] }),
    };
    return withWindowOnTop(observation, windows[p.platform]());
  },
});

const STEALERS = [
  { name: 'Terminal', app: 'gnome-terminal-server', field: 'terminal' },
  { name: 'Slack', app: 'slack', field: 'entry' },
  { name: 'Untitled Document 1 - gedit', app: 'gedit', field: 'text' },
];

const focusStolen = defineKind({
  id: 'os.focus-stolen',
  domain: 'os',
  label: 'Focus stolen by another window',
  description: 'Another window jumps to the front just before the action, so keystrokes land in the wrong place.',
  params: z.object({ window: z.string().default('').describe('Title of the window that takes focus; empty = chosen by the seed') }),
  instruction: (p) =>
    `Just before the action, ${p.window ? `the window "${p.window}"` : 'another application window'} comes to the front and takes keyboard focus. ` +
    'Any typed text goes into that window instead of the intended one, which stays behind it unchanged.',
  transform(observation, p, rng, ctx) {
    const screen = screenOf(observation);
    const stealer = p.window ? { name: p.window, app: p.window.toLowerCase().split(/\s/)[0]!, field: 'text' } : rng.pick(STEALERS);
    // Text the action typed reached the stealing window, not the intended one.
    const typed = /^\s*(?:type|write|input)\b/i.test(ctx.action) ? (quotedOf(ctx.action) ?? '') : '';
    const behind = typed ? observation.split('\n').map((l) => (l.startsWith('tag\t') ? l : l.split(typed).join(''))).join('\n') : observation;
    const w = Math.round(screen.width * 0.6);
    const h = Math.round(screen.height * 0.6);
    const at: [number, number] = [Math.round((screen.width - w) / 2), Math.round((screen.height - h) / 2)];
    return withWindowOnTop(behind, [
      { tag: 'frame', name: stealer.name, className: stealer.app, at, size: [w, h] },
      { tag: stealer.field, name: '', text: typed, at: [at[0] + 8, at[1] + 48], size: [w - 16, h - 56] },
    ]);
  },
});

const lowBattery = defineKind({
  id: 'os.low-battery',
  domain: 'os',
  label: 'Low battery dialog',
  description: 'The battery runs low and the system warns on top of the current window.',
  params: z.object({ platform, percent: z.number().int().min(0).max(100).default(5), minutesLeft: z.number().int().min(0).default(12) }),
  instruction: (p) =>
    `${PLATFORM_NAMES[p.platform]} warns that the battery is low: ${p.percent}% left, about ${p.minutesLeft} minutes. ` +
    'The warning sits on top of the current window, which is otherwise unchanged.',
  transform(observation, p) {
    const screen = screenOf(observation);
    const texts = {
      linux: { title: 'Battery low', body: `Approximately ${p.minutesLeft} minutes remaining (${p.percent}%)`, app: 'gnome-shell', buttons: ['Power Settings'] },
      windows: { title: 'Battery low', body: `${p.percent}% remaining. You might want to plug in your PC.`, app: 'ShellExperienceHost.exe', buttons: ['Close'] },
      macos: { title: 'Low Battery', body: `Your Mac will sleep soon unless plugged into a power outlet (${p.percent}% remaining).`, app: 'NotificationCenter', buttons: ['Close'] },
    }[p.platform];
    return withWindowOnTop(observation, dialogWindow(screen, { ...texts, tag: 'notification', body: [texts.body] }));
  },
});

const FILE_NAME = /[^\s"'“”\\/]+\.(?:docx?|xlsx?|pptx?|odt|ods|odp|txt|csv|pdf|png|jpe?g|zip|md)\b/i;

/** A file name the action or the screen mentions, for the locked-file message. */
function fileOf(action: string, observation: string): string {
  return FILE_NAME.exec(action)?.[0] ?? FILE_NAME.exec(observation)?.[0] ?? 'report.docx';
}

const fileLocked = defineKind({
  id: 'os.file-locked',
  domain: 'os',
  label: 'File locked by another process',
  description: 'The file the action saves, moves or deletes is open in another program, and the system refuses.',
  params: z.object({
    platform,
    file: z.string().default('').describe('Locked file; empty = the one the action or screen names'),
    holder: z.string().default('').describe('Program holding the lock; empty = a typical one for the platform'),
  }),
  instruction: (p) =>
    `The file ${p.file ? `"${p.file}"` : 'the action works on'} is open in ${p.holder || 'another program'}, which holds a lock on it. ` +
    `The operation fails and ${PLATFORM_NAMES[p.platform]} shows a dialog saying the file is in use, offering to try again or cancel.`,
  transform(observation, p, _rng, ctx) {
    const file = p.file || fileOf(ctx.action, observation);
    const screen = screenOf(observation);
    const dialogs = {
      linux: () =>
        dialogWindow(screen, {
          title: 'Document in Use',
          app: 'soffice',
          body: [`Document file '${file}' is locked for editing by:`, p.holder || 'another user', 'Open the document read-only, or open a copy of it for editing.'],
          buttons: ['Open Read-Only', 'Open Copy', 'Cancel'],
        }),
      windows: () =>
        dialogWindow(screen, {
          title: 'File In Use',
          app: 'explorer.exe',
          body: [`The action can't be completed because the file is open in ${p.holder || 'Microsoft Word'}.`, 'Close the file and try again.', file],
          buttons: ['Try Again', 'Cancel'],
        }),
      macos: () =>
        dialogWindow(screen, {
          title: `The operation can't be completed because “${file}” is in use.`,
          app: 'Finder',
          body: [`“${file}” is open in ${p.holder || 'Preview'}.`],
          buttons: ['OK'],
        }),
    };
    return withWindowOnTop(observation, dialogs[p.platform]());
  },
});

const diskFull = defineKind({
  id: 'os.disk-full',
  domain: 'os',
  label: 'Disk full',
  description: 'The system disk is (almost) full; the system warns and writes fail.',
  params: z.object({
    platform,
    volume: z.string().default('').describe('Volume name; empty = the system disk of the platform'),
    freeMb: z.number().min(0).default(0),
  }),
  instruction: (p) =>
    `The system disk${p.volume ? ` "${p.volume}"` : ''} is full (${p.freeMb} MB free). ${PLATFORM_NAMES[p.platform]} shows its low disk space warning ` +
    'on top of the current window, and any save in the action fails.',
  transform(observation, p) {
    const screen = screenOf(observation);
    const free = p.freeMb === 0 ? '0 bytes' : `${p.freeMb} MB`;
    const texts = {
      linux: { title: 'Low Disk Space', app: 'gsd-housekeeping', body: `The volume “${p.volume || 'Filesystem root'}” has only ${free} disk space remaining.`, buttons: ['Examine…', 'Ignore'] },
      windows: { title: 'Low Disk Space', app: 'explorer.exe', body: `You are running out of disk space on ${p.volume || 'Local Disk (C:)'}. ${free} free.`, buttons: ['Free up space', 'Close'] },
      macos: { title: 'Your disk is almost full.', app: 'NotificationCenter', body: `${p.volume || 'Macintosh HD'} has ${free} available. Save space by optimising storage.`, buttons: ['Manage…', 'Not Now'] },
    }[p.platform];
    return withWindowOnTop(observation, dialogWindow(screen, { ...texts, tag: 'notification', body: [texts.body] }));
  },
});

export const OS_KINDS = [elevationPrompt, updateNotification, focusStolen, lowBattery, fileLocked, diskFull];
