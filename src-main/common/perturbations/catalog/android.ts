// Android perturbations: system windows and device changes that interrupt an app, shown in
// the uiautomator view hierarchy the agent reads (see ./view-hierarchy.ts). Package names
// and resource ids are the ones Android itself uses, so tap targets look real.
import { z } from 'zod';
import { defineKind } from '../kind';
import { targetOf } from './action-hints';
import { addWindow, appLabelOf, appPackageOf, boundsOf, mapBounds, replaceWindow, screenOf, systemDialog, type ViewNode } from './view-hierarchy';

const PERMISSION_CONTROLLER = 'com.google.android.permissioncontroller';
const pcId = (name: string) => `${PERMISSION_CONTROLLER}:id/${name}`;

const PERMISSION_QUESTIONS = {
  location: "access this device's location",
  camera: 'take pictures and record video',
  microphone: 'record audio',
  contacts: 'access your contacts',
  notifications: 'send you notifications',
  photos: 'access photos and videos on this device',
};

const appName = (given: string, xml: string) => given || appLabelOf(appPackageOf(xml));

const permissionDialog = defineKind({
  id: 'android.permission-dialog',
  domain: 'android',
  label: 'Permission dialog',
  description: 'Android asks the user to grant the app a runtime permission before it can go on.',
  params: z.object({
    permission: z.enum(['location', 'camera', 'microphone', 'contacts', 'notifications', 'photos']).default('location'),
    app: z.string().default('').describe('App name in the question; empty = from the foreground package'),
  }),
  instruction: (p) =>
    `A system permission dialog appears: "Allow ${p.app || 'the app'} to ${PERMISSION_QUESTIONS[p.permission]}?". ` +
    'It comes from the permission controller and takes the foreground; the app underneath cannot be used until it is answered.',
  transform(observation, p) {
    const screen = screenOf(observation);
    // Location and camera/microphone offer foreground-only and one-time grants; the others a plain allow.
    const scoped = ['location', 'camera', 'microphone'].includes(p.permission);
    const buttons = scoped
      ? [
          { text: 'While using the app', id: pcId('permission_allow_foreground_only_button') },
          { text: 'Only this time', id: pcId('permission_allow_one_time_button') },
          { text: "Don't allow", id: pcId('permission_deny_button') },
        ]
      : [
          { text: 'Allow', id: pcId('permission_allow_button') },
          { text: "Don't allow", id: pcId('permission_deny_button') },
        ];
    const question = `Allow ${appName(p.app, observation)} to ${PERMISSION_QUESTIONS[p.permission]}?`;
    return replaceWindow(observation, [systemDialog(screen, PERMISSION_CONTROLLER, { title: question, titleId: pcId('permission_message'), buttons })]);
  },
});

const systemPopup = defineKind({
  id: 'android.system-popup',
  domain: 'android',
  label: 'System pop-up',
  description: 'A system dialog unrelated to the task pops up over the app: another app crashed, the battery is low, storage is full.',
  params: z.object({
    popup: z.enum(['app-keeps-stopping', 'low-battery', 'storage-full']).default('app-keeps-stopping'),
    otherApp: z.string().default('Google Play services').describe('App that crashed, for app-keeps-stopping'),
    batteryPercent: z.number().int().min(0).max(100).default(15),
  }),
  instruction: (p) =>
    'A system dialog pops up over the app: ' +
    {
      'app-keeps-stopping': `"${p.otherApp} keeps stopping" with the buttons "App info" and "Close app".`,
      'low-battery': `"Battery is low", ${p.batteryPercent}% remaining, offering to turn on Battery Saver.`,
      'storage-full': '"Storage space running out", offering to free up space.',
    }[p.popup] +
    ' The app stays underneath, unchanged.',
  transform(observation, p) {
    const screen = screenOf(observation);
    const dialogs = {
      'app-keeps-stopping': () =>
        systemDialog(screen, 'android', {
          title: `${p.otherApp} keeps stopping`,
          titleId: 'android:id/alertTitle',
          buttons: [
            { text: 'App info', id: 'android:id/aerr_app_info' },
            { text: 'Close app', id: 'android:id/aerr_close' },
          ],
        }),
      'low-battery': () =>
        systemDialog(screen, 'com.android.systemui', {
          title: 'Battery is low',
          titleId: 'android:id/alertTitle',
          message: `${p.batteryPercent}% remaining. Turn on Battery Saver to extend battery life?`,
          messageId: 'android:id/message',
          buttons: [
            { text: 'Cancel', id: 'android:id/button2' },
            { text: 'Turn on', id: 'android:id/button1' },
          ],
        }),
      'storage-full': () =>
        systemDialog(screen, 'com.android.systemui', {
          title: 'Storage space running out',
          titleId: 'android:id/alertTitle',
          message: 'Some system functions may not work. Free up space to keep your phone running smoothly.',
          messageId: 'android:id/message',
          buttons: [
            { text: 'Dismiss', id: 'android:id/button2' },
            { text: 'Free up space', id: 'android:id/button1' },
          ],
        }),
    };
    return addWindow(observation, [dialogs[p.popup]()]);
  },
});

const appNotResponding = defineKind({
  id: 'android.app-not-responding',
  domain: 'android',
  label: 'App not responding',
  description: "The foreground app hangs and Android shows its \"isn't responding\" dialog.",
  params: z.object({ app: z.string().default('').describe('App name; empty = from the foreground package') }),
  instruction: (p) =>
    `The app freezes and Android shows "${p.app || 'The app'} isn't responding" with the buttons "Close app" and "Wait". ` +
    "The action has no effect on the app's screen.",
  transform(observation, p) {
    const dialog = systemDialog(screenOf(observation), 'android', {
      title: `${appName(p.app, observation)} isn't responding`,
      titleId: 'android:id/alertTitle',
      buttons: [
        { text: 'Close app', id: 'android:id/aerr_close' },
        { text: 'Wait', id: 'android:id/aerr_wait' },
      ],
    });
    return addWindow(observation, [dialog]);
  },
});

const KEYBOARD = 'com.google.android.inputmethod.latin';

const keyboardCovering = defineKind({
  id: 'android.keyboard-covering',
  domain: 'android',
  label: 'Keyboard covers the target',
  description: 'The on-screen keyboard is open and hides the lower part of the screen, including the element the agent wants.',
  params: z.object({
    heightFraction: z.number().min(0.2).max(0.6).default(0.4).describe('Share of the screen height the keyboard takes'),
    target: z.string().default('').describe('Text or description of the element to hide; empty = the one the action targets'),
  }),
  instruction: (p, ctx) =>
    `The on-screen keyboard is open and covers the bottom ${Math.round(p.heightFraction * 100)}% of the screen. ` +
    `${p.target || targetOf(ctx.action) ? `The element "${p.target || targetOf(ctx.action)}"` : 'The element the action targets'} is underneath it, ` +
    'so it is not visible in the hierarchy; the keyboard window appears instead.',
  transform(observation, p, _rng, ctx) {
    const screen = screenOf(observation);
    let top = Math.round(screen.height * (1 - p.heightFraction));
    const target = p.target || targetOf(ctx.action);
    const lines = observation.split('\n');
    const targetLine = target ? lines.find((l) => l.includes(`text="${target}"`) || l.includes(`content-desc="${target}"`)) : undefined;
    const targetBounds = targetLine ? boundsOf(targetLine) : undefined;
    // The keyboard reaches at least up to the target (a keyboard never takes more than 70% of the screen).
    if (targetBounds && targetBounds[1] < top) top = Math.max(targetBounds[1], Math.round(screen.height * 0.3));
    // uiautomator leaves out views the user cannot see; leaf views centred under the keyboard go.
    const visible = lines.filter((l) => {
      const b = /<node\b.*\/>\s*$/.test(l) ? boundsOf(l) : undefined;
      return !b || (b[1] + b[3]) / 2 < top;
    });
    const key = (desc: string, i: number, row: number): ViewNode => {
      const w = Math.floor(screen.width / 5);
      return { contentDesc: desc, className: 'android.widget.FrameLayout', packageName: KEYBOARD, clickable: true, bounds: [i * w, top + row * 150, (i + 1) * w, top + (row + 1) * 150] };
    };
    const keyboard: ViewNode = {
      className: 'android.widget.FrameLayout',
      packageName: KEYBOARD,
      resourceId: `${KEYBOARD}:id/keyboard_holder`,
      bounds: [0, top, screen.width, screen.height],
      children: [key('Shift', 0, 1), key('Symbols', 0, 2), key('Space', 1, 2), key('Delete', 4, 1), key('Enter', 4, 2)],
    };
    return addWindow(visible.join('\n'), [keyboard]);
  },
});

const TOASTS = ['No internet connection', "Couldn't refresh. Try again.", 'Something went wrong', 'Saved to drafts'];

const toast = defineKind({
  id: 'android.toast',
  domain: 'android',
  label: 'Toast',
  description: 'A short toast message appears near the bottom of the screen.',
  params: z.object({ message: z.string().default('').describe('Toast text; empty = one chosen by the seed') }),
  instruction: (p) =>
    `A toast ${p.message ? `saying "${p.message}"` : 'with a short status or error message'} appears near the bottom of the screen, ` +
    'over the app; everything else is as the action would leave it.',
  transform(observation, p, rng) {
    const screen = screenOf(observation);
    const pkg = appPackageOf(observation);
    const message = p.message || rng.pick(TOASTS);
    const width = Math.min(screen.width - 160, 120 + message.length * 24);
    const left = Math.round((screen.width - width) / 2);
    const top = screen.height - 360;
    return addWindow(observation, [
      {
        className: 'android.widget.LinearLayout',
        packageName: pkg,
        bounds: [left, top, left + width, top + 130],
        children: [{ text: message, resourceId: 'android:id/message', className: 'android.widget.TextView', packageName: pkg, bounds: [left + 40, top + 30, left + width - 40, top + 100] }],
      },
    ]);
  },
});

const rotation = defineKind({
  id: 'android.rotation',
  domain: 'android',
  label: 'Screen rotation',
  description: 'The device rotates: the hierarchy reports the new rotation and every view is laid out for the new shape.',
  params: z.object({ orientation: z.enum(['landscape', 'portrait']).default('landscape') }),
  instruction: (p) =>
    `The device rotates to ${p.orientation}. The app is laid out again for the new screen shape: the hierarchy's rotation ` +
    `attribute is ${p.orientation === 'landscape' ? 1 : 0} and all bounds fit the rotated screen; some views may move or scroll.`,
  transform(observation, p) {
    const { width, height } = screenOf(observation);
    if ((width > height) === (p.orientation === 'landscape')) return observation;
    // A proportional re-layout: each view keeps its relative position on the rotated screen.
    const sx = height / width;
    const sy = width / height;
    const rotated = mapBounds(observation, ([l, t, r, b]) => [Math.round(l * sx), Math.round(t * sy), Math.round(r * sx), Math.round(b * sy)]);
    return rotated.replace(/<hierarchy rotation="\d"/, `<hierarchy rotation="${p.orientation === 'landscape' ? 1 : 0}"`);
  },
});

export const ANDROID_KINDS = [permissionDialog, systemPopup, appNotResponding, keyboardCovering, toast, rotation];
