import { describe, expect, it } from 'vitest';
import { fixture, perturb } from '../../../testing/perturbation-fixtures';
import { boundsOf } from './view-hierarchy';

const dump = fixture('android-compose.xml');
const nodeWith = (xml: string, text: string) => xml.split('\n').find((l) => l.includes(`text="${text}"`));

describe('android perturbations', () => {
  it('permission dialog: the permission controller takes the foreground with Android\'s buttons', () => {
    const out = perturb('android.permission-dialog');
    expect(out).toContain('<hierarchy rotation="0">');
    expect(out).not.toContain('com.example.mail');
    expect(nodeWith(out, "Allow Mail to access this device's location?")).toContain('permission_message');
    expect(out).toContain('resource-id="com.google.android.permissioncontroller:id/permission_allow_foreground_only_button"');
    expect(out).toContain('text="Only this time"');
    const contacts = perturb('android.permission-dialog', { params: { permission: 'contacts', app: 'Dialer' } });
    expect(contacts).toContain('text="Allow Dialer to access your contacts?"');
    expect(contacts).toContain('permission_allow_button');
    expect(contacts).not.toContain('Only this time');
    expect(out.trimEnd().endsWith('</hierarchy>')).toBe(true);
  });

  it('system pop-up: a system dialog window over the unchanged app', () => {
    const out = perturb('android.system-popup', { params: { otherApp: 'Photos' } });
    expect(out).toContain(nodeWith(dump, 'Send'));
    expect(out).toContain('text="Photos keeps stopping" resource-id="android:id/alertTitle"');
    expect(out).toContain('resource-id="android:id/aerr_close"');
    expect(out).toMatch(/<node index="1" [^>]*package="android"/);
    expect(perturb('android.system-popup', { params: { popup: 'low-battery', batteryPercent: 9 } })).toContain('text="9% remaining.');
  });

  it('app not responding: "<App> isn\'t responding" with Close app and Wait', () => {
    const out = perturb('android.app-not-responding');
    expect(out).toContain(`text="Mail isn't responding"`);
    expect(out).toContain('text="Wait" resource-id="android:id/aerr_wait"');
    expect(nodeWith(out, 'Compose')).toBeDefined();
  });

  it('keyboard covering: the target under the keyboard is gone and the IME window appears', () => {
    const out = perturb('android.keyboard-covering');
    expect(nodeWith(out, 'Send')).toBeUndefined();
    expect(nodeWith(out, 'Quarterly report')).toBeDefined();
    expect(out).toContain('package="com.google.android.inputmethod.latin"');
    expect(out).toContain('content-desc="Enter"');
    const keyboard = out.split('\n').find((l) => l.includes('keyboard_holder'))!;
    expect(boundsOf(keyboard)).toEqual([0, 1440, 1080, 2400]);
    // A target higher up pulls the keyboard up to cover it.
    const high = perturb('android.keyboard-covering', { params: { target: 'Hi Dana, the numbers are attached.' } });
    expect(nodeWith(high, 'Hi Dana, the numbers are attached.')).toBeUndefined();
    expect(boundsOf(high.split('\n').find((l) => l.includes('keyboard_holder'))!)![1]).toBe(720);
  });

  it('toast: a message node near the bottom, from the seed when not given', () => {
    const out = perturb('android.toast', { params: { message: 'Message queued' } });
    const toast = nodeWith(out, 'Message queued')!;
    expect(toast).toContain('resource-id="android:id/message"');
    expect(boundsOf(toast)![1]).toBeGreaterThan(2000);
    const messages = new Set([1, 2, 3, 4, 5, 6].map((seed) => /text="([^"]*)" resource-id="android:id\/message"/.exec(perturb('android.toast', { seed }))![1]));
    expect(messages.size).toBeGreaterThan(1);
  });

  it('rotation: rotation="1" and every bound rescaled to the landscape screen', () => {
    const out = perturb('android.rotation');
    expect(out).toContain('<hierarchy rotation="1">');
    expect(out).toContain('bounds="[0,0][2400,1080]"');
    expect(boundsOf(nodeWith(out, 'Send')!)).toEqual([1689, 990, 2293, 1049]);
    expect(perturb('android.rotation', { params: { orientation: 'portrait' } })).toBe(dump);
  });
});
