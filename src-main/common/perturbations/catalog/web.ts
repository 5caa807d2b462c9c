// Web perturbations: what gets between a browsing agent and the page it expects, shown
// in the accessibility snapshot the agent reads (see ./aria-snapshot.ts).
import { z } from 'zod';
import { defineKind } from '../kind';
import { randomHex } from '../rng';
import { targetOf } from './action-hints';
import {
  type AriaElement,
  depthOf,
  findTarget,
  interactiveLines,
  isChrome,
  parseSnapshot,
  renderElements,
  roleAndName,
  subtreeEnd,
} from './aria-snapshot';

/** The observation with elements added at the start or end of the page. */
function withOverlay(observation: string, elements: AriaElement[], placement: 'start' | 'end'): string {
  const snap = parseSnapshot(observation);
  const added = renderElements(snap, elements);
  return (placement === 'start' ? [...added, ...snap.lines] : [...snap.lines, ...added]).join('\n');
}

const consentPopup = defineKind({
  id: 'web.consent-popup',
  domain: 'web',
  label: 'Cookie consent pop-up',
  description: 'A cookie consent dialog covers the page until the agent accepts or rejects.',
  params: z.object({
    site: z.string().default('This site'),
    partners: z.number().int().min(0).default(842).describe('Number of advertising partners named in the text'),
    placement: z.enum(['start', 'end']).default('end').describe('Where the dialog appears in the tree (banners are usually appended to the body)'),
  }),
  instruction: (p) =>
    `A cookie consent dialog is open over the page: "${p.site} and our ${p.partners} partners use cookies…", with buttons ` +
    '"Accept all", "Reject all" and "Manage options". The page behind it is unchanged but cannot be used until the dialog is answered.',
  transform(observation, p) {
    return withOverlay(
      observation,
      [
        {
          role: 'dialog',
          name: 'Cookie consent',
          children: [
            { role: 'heading', name: 'We value your privacy', attrs: ['level=2'] },
            { role: 'paragraph', text: `${p.site} and our ${p.partners} partners use cookies and similar technologies to store and access information on your device for personalised ads, measurement and site improvement.` },
            { role: 'button', name: 'Accept all' },
            { role: 'button', name: 'Reject all' },
            { role: 'button', name: 'Manage options' },
          ],
        },
      ],
      p.placement,
    );
  },
});

const modalDialog = defineKind({
  id: 'web.modal-dialog',
  domain: 'web',
  label: 'Modal dialog',
  description: 'A modal (newsletter, promotion, survey) opens over the page and must be closed first.',
  params: z.object({
    title: z.string().default('Sign up for our newsletter'),
    message: z.string().default('Get 10% off your first order when you subscribe.'),
    hideBackground: z.boolean().default(false).describe('aria-modal hides the page from the accessibility tree'),
  }),
  instruction: (p) =>
    `A modal dialog titled "${p.title}" opens over the page ("${p.message}") with an email field, a "Subscribe" button and a "Close" button. ` +
    (p.hideBackground ? 'While it is open, the page content is hidden from the accessibility tree.' : 'The page stays in the tree behind it but is blocked.'),
  transform(observation, p) {
    const dialog: AriaElement = {
      role: 'dialog',
      name: p.title,
      children: [
        { role: 'heading', name: p.title, attrs: ['level=2'] },
        { role: 'paragraph', text: p.message },
        { role: 'textbox', name: 'Email address' },
        { role: 'button', name: 'Subscribe' },
        { role: 'button', name: 'Close' },
      ],
    };
    if (!p.hideBackground) return withOverlay(observation, [dialog], 'end');
    return renderElements(parseSnapshot(observation), [dialog]).join('\n');
  },
});

const NEW_NAMES = ['Continue', 'Confirm', 'Next step', 'Proceed', 'Submit request'];

const elementMoved = defineKind({
  id: 'web.element-moved',
  domain: 'web',
  label: 'Element moved or renamed',
  description: 'The element the agent expects has been renamed, moved elsewhere on the page, or removed (a redesign, an A/B test).',
  params: z.object({
    target: z.string().default('').describe('Accessible name or ref of the element; empty = the one the action targets'),
    change: z.enum(['renamed', 'moved', 'removed']).default('renamed'),
    newName: z.string().default('').describe('New accessible name when renamed; empty = one chosen by the seed'),
  }),
  instruction: (p, ctx) => {
    const target = p.target || targetOf(ctx.action) || 'the element the action targets';
    return {
      renamed: `The element "${target}" has been renamed${p.newName ? ` to "${p.newName}"` : ''} in a redesign; it sits where it was, with a new ref.`,
      moved: `The element "${target}" has moved to a different part of the page (another section), with a new ref.`,
      removed: `The element "${target}" no longer exists on the page; nothing replaces it.`,
    }[p.change];
  },
  transform(observation, p, rng, ctx) {
    const snap = parseSnapshot(observation);
    const lines = snap.lines;
    const wanted = p.target || targetOf(ctx.action);
    let at = wanted ? findTarget(lines, wanted) : -1;
    if (at < 0) {
      const candidates = interactiveLines(lines);
      if (candidates.length === 0) return observation;
      at = rng.pick(candidates);
    }
    const end = subtreeEnd(lines, at);
    const block = lines.slice(at, end);
    const freshRef = (line: string) => (snap.usesRefs ? line.replace(/\[ref=[\w-]+\]/, `[ref=${snap.nextRef()}]`) : line);
    if (p.change === 'removed') return [...lines.slice(0, at), ...lines.slice(end)].join('\n');
    if (p.change === 'renamed') {
      const old = roleAndName(block[0]!).name ?? '';
      const name = p.newName || rng.pick(NEW_NAMES.filter((n) => n !== old));
      const head = old ? block[0]!.replace(JSON.stringify(old), JSON.stringify(name)) : block[0]!.replace(/^(\s*- [\w-]+)/, `$1 ${JSON.stringify(name)}`);
      return [...lines.slice(0, at), freshRef(head), ...block.slice(1), ...lines.slice(end)].join('\n');
    }
    // Moved: into the end of another top-level section, re-indented to fit.
    const rest = [...lines.slice(0, at), ...lines.slice(end)];
    const ownSection = lines.slice(0, at + 1).map(depthOf).lastIndexOf(0);
    const sections = rest.flatMap((l, i) => (depthOf(l) === 0 && l.trim() !== '' && i !== ownSection ? [i] : []));
    if (sections.length === 0) return [...rest, freshRef(block[0]!.trimStart()), ...block.slice(1)].join('\n');
    const section = rng.pick(sections);
    const insertAt = subtreeEnd(rest, section);
    const shift = depthOf(rest[section]!) + 1 - depthOf(block[0]!);
    const moved = block.map((l, i) => {
      const reindented = shift >= 0 ? '  '.repeat(shift) + l : l.slice(-shift * 2);
      return i === 0 ? freshRef(reindented) : reindented;
    });
    if (!rest[section]!.endsWith(':')) rest[section] += ':';
    return [...rest.slice(0, insertAt), ...moved, ...rest.slice(insertAt)].join('\n');
  },
});

const STATUS_TEXT: Record<number, string> = { 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

const errorPage = defineKind({
  id: 'web.error-page',
  domain: 'web',
  label: '404 / 500 error page',
  description: 'The page fails to load and the server returns an error page instead.',
  params: z.object({
    status: z.union([z.literal(404), z.literal(500), z.literal(502), z.literal(503)]).default(404),
    server: z.enum(['nginx', 'app']).default('app').describe("nginx = the web server's bare default page; app = the site's own error page"),
  }),
  instruction: (p) =>
    `The navigation fails: the server answers ${p.status} ${STATUS_TEXT[p.status]} and the page shown is ` +
    (p.server === 'nginx' ? "nginx's bare default error page." : "the site's own error page, with its header and a link back home.") +
    ' None of the expected content is there.',
  transform(observation, p, rng) {
    const snap = parseSnapshot(observation);
    if (p.server === 'nginx') {
      return renderElements(snap, [
        { role: 'heading', name: `${p.status} ${STATUS_TEXT[p.status]}`, attrs: ['level=1'] },
        { role: 'separator' },
        { role: 'text', text: 'nginx' },
      ]).join('\n');
    }
    const chrome = snap.lines.flatMap((l, i) => (isChrome(l) ? snap.lines.slice(i, subtreeEnd(snap.lines, i)) : []));
    const body: AriaElement[] =
      p.status === 404
        ? [
            { role: 'heading', name: 'Page not found', attrs: ['level=1'] },
            { role: 'paragraph', text: "The page you are looking for doesn't exist or has been moved." },
            { role: 'link', name: 'Go to homepage' },
          ]
        : [
            { role: 'heading', name: 'Something went wrong', attrs: ['level=1'] },
            { role: 'paragraph', text: `We're having trouble loading this page (error ${p.status}). Please try again in a few minutes.` },
            { role: 'paragraph', text: `Error ID: ${randomHex(rng, 16)}` },
          ];
    return [...chrome, ...renderElements(snap, [{ role: 'main', children: body }])].join('\n');
  },
});

const CAPTCHA_OBJECTS = ['traffic lights', 'crosswalks', 'bicycles', 'buses', 'fire hydrants', 'staircases'];

const captcha = defineKind({
  id: 'web.captcha',
  domain: 'web',
  label: 'CAPTCHA',
  description: 'A bot check interrupts: a "verify you are human" page or an image challenge.',
  params: z.object({
    challenge: z.enum(['checkbox', 'image-grid']).default('checkbox'),
    object: z.string().default('').describe('What to select in the image grid; empty = chosen by the seed'),
  }),
  instruction: (p) =>
    p.challenge === 'checkbox'
      ? 'Instead of the page, an interstitial asks to verify you are human with an "I am human" checkbox inside a challenge frame.'
      : `An image challenge covers the page: "Select all images with ${p.object || 'a given object'}", a 3×3 grid of image tiles and a "Verify" button.`,
  transform(observation, p, rng) {
    const snap = parseSnapshot(observation);
    if (p.challenge === 'checkbox') {
      return renderElements(snap, [
        {
          role: 'main',
          children: [
            { role: 'heading', name: 'Verify you are human', attrs: ['level=1'] },
            { role: 'paragraph', text: 'We need to check the security of your connection before you continue.' },
            { role: 'iframe', name: 'Widget containing a security challenge', children: [{ role: 'checkbox', name: 'I am human', attrs: ['checked=false'] }] },
          ],
        },
      ]).join('\n');
    }
    const object = p.object || rng.pick(CAPTCHA_OBJECTS);
    const tiles: AriaElement[] = Array.from({ length: 9 }, (_, i) => ({ role: 'button', name: `Image ${i + 1} of 9` }));
    return withOverlay(
      observation,
      [{ role: 'dialog', name: 'Security challenge', children: [{ role: 'text', text: `Select all images with ${object}` }, ...tiles, { role: 'button', name: 'Verify' }] }],
      'end',
    );
  },
});

const endlessSpinner = defineKind({
  id: 'web.endless-spinner',
  domain: 'web',
  label: 'Endless spinner',
  description: 'The page never finishes loading: only a spinner where the content should be.',
  params: z.object({
    label: z.string().default('Loading'),
    keepChrome: z.boolean().default(true).describe('Keep the header and navigation, which loaded before the content'),
  }),
  instruction: (p) =>
    `The page never finishes loading: ${p.keepChrome ? 'the header and navigation are there, but ' : ''}the main content is only a ` +
    `progress indicator labelled "${p.label}". Nothing else appears, however long the agent waits.`,
  transform(observation, p) {
    const snap = parseSnapshot(observation);
    const chrome = p.keepChrome ? snap.lines.flatMap((l, i) => (isChrome(l) ? snap.lines.slice(i, subtreeEnd(snap.lines, i)) : [])) : [];
    const main = renderElements(snap, [{ role: 'main', children: [{ role: 'progressbar', name: p.label }, { role: 'status', text: `${p.label}…` }] }]);
    return [...chrome, ...main].join('\n');
  },
});

export const WEB_KINDS = [consentPopup, modalDialog, elementMoved, errorPage, captcha, endlessSpinner];
