import { describe, expect, it } from 'vitest';
import { fixture, perturb } from '../../../testing/perturbation-fixtures';

const page = fixture('web-checkout.txt');
const refs = (text: string) => [...text.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]);

describe('web perturbations', () => {
  it('consent pop-up: a dialog with the three choices, refs continuing after the page\'s', () => {
    const out = perturb('web.consent-popup', { params: { site: 'Acme Store', partners: 120 } });
    expect(out.startsWith(page.trimEnd())).toBe(true);
    expect(out).toContain('\n- dialog "Cookie consent" [ref=e14]:\n  - heading "We value your privacy" [level=2] [ref=e15]\n');
    expect(out).toContain('  - paragraph [ref=e16]: Acme Store and our 120 partners use cookies');
    expect(out).toMatch(/- button "Accept all" \[ref=e17\]\n {2}- button "Reject all" \[ref=e18\]\n {2}- button "Manage options" \[ref=e19\]$/);
    expect(new Set(refs(out)).size).toBe(refs(out).length);
    expect(perturb('web.consent-popup', { params: { placement: 'start' } })).toMatch(/^- dialog "Cookie consent"/);
  });

  it('modal dialog: over the page, or alone when aria-modal hides the page', () => {
    const over = perturb('web.modal-dialog', { params: { title: 'Rate your visit' } });
    expect(over).toContain('- button "Place order" [ref=e11]');
    expect(over).toContain('- dialog "Rate your visit" [ref=e14]:');
    const alone = perturb('web.modal-dialog', { params: { hideBackground: true } });
    expect(alone).not.toContain('Place order');
    expect(alone).toMatch(/^- dialog "Sign up for our newsletter" \[ref=e14\]:/);
    expect(alone).toContain('  - button "Close" [ref=e19]');
  });

  it('element renamed: the action\'s target gets a new name and ref in place', () => {
    const out = perturb('web.element-moved', { params: { newName: 'Pay now' } });
    expect(out).toContain('  - checkbox "Save card for next time" [ref=e10]\n  - button "Pay now" [ref=e14]\n- contentinfo');
    expect(out).not.toContain('Place order');
    const byRef = perturb('web.element-moved', { action: 'click [ref=e8]', params: { newName: 'Email address' } });
    expect(byRef).toContain('- textbox "Email address" [ref=e14]');
    const seeded = new Set([1, 2, 3, 4, 5, 6].map((seed) => perturb('web.element-moved', { seed })));
    expect(seeded.size).toBeGreaterThan(1);
  });

  it('element moved: the subtree lands in another section, re-indented', () => {
    const out = perturb('web.element-moved', { params: { change: 'moved' } });
    const lines = out.split('\n');
    const moved = lines.findIndex((l) => l.includes('button "Place order"'));
    expect(lines[moved]).toMatch(/^ {2}- button "Place order" \[ref=e14\]$/);
    expect(lines.slice(0, moved).reverse().find((l) => /^- /.test(l))).not.toMatch(/^- main/);
    expect(lines).toHaveLength(page.trimEnd().split('\n').length);
  });

  it('element removed: the target and its subtree are gone', () => {
    const out = perturb('web.element-moved', { params: { change: 'removed', target: 'Acme Store' } });
    expect(out).not.toContain('Acme Store"');
    expect(out).not.toContain('/url: /');
    expect(out).toContain('- navigation "Main" [ref=e3]:');
  });

  it('error page: the site\'s page keeps header and navigation; nginx\'s is bare', () => {
    const notFound = perturb('web.error-page');
    expect(notFound).toContain('- navigation "Main" [ref=e3]:');
    expect(notFound).toContain('- main [ref=e14]:\n  - heading "Page not found" [level=1] [ref=e15]');
    expect(notFound).not.toContain('Checkout');
    expect(perturb('web.error-page', { params: { status: 502, server: 'nginx' } })).toBe(
      '- heading "502 Bad Gateway" [level=1] [ref=e14]\n- separator [ref=e15]\n- text: nginx',
    );
    const ids = new Set([1, 2, 3].map((seed) => /Error ID: (\w+)/.exec(perturb('web.error-page', { seed, params: { status: 500 } }))![1]));
    expect(ids.size).toBe(3);
  });

  it('CAPTCHA: an interstitial instead of the page, or an image grid over it', () => {
    const check = perturb('web.captcha');
    expect(check).not.toContain('Checkout');
    expect(check).toContain('    - checkbox "I am human" [checked=false] [ref=e18]');
    const grid = perturb('web.captcha', { params: { challenge: 'image-grid', object: 'bicycles' } });
    expect(grid).toContain('- text: Select all images with bicycles');
    expect(grid.match(/- button "Image \d of 9"/g)).toHaveLength(9);
    expect(grid).toContain('Place order');
    const objects = new Set([1, 2, 3, 4, 5, 6].map((seed) => /images with ([\w ]+)/.exec(perturb('web.captcha', { seed, params: { challenge: 'image-grid' } }))![1]));
    expect(objects.size).toBeGreaterThan(1);
  });

  it('endless spinner: only a progress bar where the content was', () => {
    const out = perturb('web.endless-spinner');
    expect(out).toContain('- banner [ref=e1]:');
    expect(out).toMatch(/- main \[ref=e14\]:\n {2}- progressbar "Loading" \[ref=e15\]\n {2}- status \[ref=e16\]: Loading…$/);
    expect(out).not.toContain('Place order');
    expect(out).not.toContain('contentinfo');
    expect(perturb('web.endless-spinner', { params: { keepChrome: false } })).toMatch(/^- main/);
  });

  it('adds no refs to a snapshot that has none', () => {
    const plain = page.replace(/ \[ref=e\d+\]/g, '');
    expect(perturb('web.consent-popup', { observation: plain })).not.toContain('[ref=');
  });
});
