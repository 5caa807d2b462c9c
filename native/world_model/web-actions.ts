// Picks a web agent's next action from the page it is looking at: the elements of the
// accessibility snapshot the app's web recorder returned (links, buttons, text boxes with
// their [ref=…]) decide what can be clicked or typed into, the way an agent reads the
// page. Now and then it goes to an address by hand (sometimes one that does not exist),
// goes back, scrolls, presses Enter, or uses a reference that is not on the page.
import type { Rng } from './rng';
import { storeFor } from './web-site';

interface Element {
  role: string;
  name: string;
  ref: string;
}

const PATHS = ['/', '/products', '/search', '/cart', '/login', '/contact'];
const MISSING = ['/about', '/help', '/checkout', '/product/1', '/blog', '/account'];
const PEOPLE = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];

/** The snapshot's elements an agent can act on. */
export function elementsOf(snapshot: string): Element[] {
  const out: Element[] = [];
  for (const m of snapshot.matchAll(/- (link|button|textbox|searchbox|checkbox|combobox) "([^"]*)"[^\n]*\[ref=(\w+)\]/g)) {
    out.push({ role: m[1]!, name: m[2]!, ref: m[3]! });
  }
  return out;
}

function textFor(rng: Rng, box: Element, store: number): string {
  const name = box.name.toLowerCase();
  if (name.includes('password')) return rng.chance(0.6) ? 'secret' : rng.pick(['hunter2', 'password', '1234']);
  if (name.includes('email')) return rng.chance(0.7) ? `${rng.pick(PEOPLE)}@example.com` : rng.pick(['not-an-email', 'bob@', '']);
  if (name.includes('search')) {
    const products = storeFor(store).products;
    const word = rng.chance(0.7) ? rng.pick(products).name.split(' ')[rng.int(0, 1)] ?? 'mug' : rng.pick(['lamp', 'shoes', 'mug', 'set', 'bag']);
    return rng.chance(0.5) ? word.toLowerCase() : word;
  }
  if (name.includes('message')) return rng.pick(['Where is my order?', 'Do you ship abroad?', 'Hello!', 'Please call me back.']);
  return rng.chance(0.9) ? rng.pick(PEOPLE) : '';
}

/** The next action, given the last observation and what was typed already on this page. */
export function nextWebAction(rng: Rng, origin: string, store: number, observation: string, typedOnPage: Set<string>): string {
  const base = `${origin}/store/${store}`;
  const elements = elementsOf(observation);
  const links = elements.filter((e) => e.role === 'link');
  const buttons = elements.filter((e) => e.role === 'button');
  const boxes = elements.filter((e) => e.role === 'textbox' || e.role === 'searchbox');
  const untyped = boxes.filter((b) => !typedOnPage.has(b.ref));
  if (elements.length === 0 || rng.chance(0.08)) {
    return `goto ${base}${rng.chance(0.8) ? rng.pick(PATHS) : rng.pick(MISSING)}`;
  }
  if (untyped.length && rng.chance(0.75)) {
    const box = untyped[0]!;
    typedOnPage.add(box.ref);
    const text = textFor(rng, box, store);
    return rng.chance(0.2) || text === '' || /\s/.test(text) ? `type ${box.ref} ${JSON.stringify(text)}` : `type ${box.ref} ${text}`;
  }
  const r = rng.next();
  if (boxes.length && r < 0.12) return 'press Enter';
  if (buttons.length && r < 0.45) return `click ${rng.pick(buttons).ref}`;
  if (r < 0.52) return 'back';
  if (r < 0.56) return rng.chance(0.5) ? 'scroll down' : 'scroll up 300';
  if (r < 0.58) {
    // A reference from an earlier page: the recorder shows Playwright's error and the page.
    return `click e${rng.int(40, 90)}`;
  }
  const content = links.filter((l) => !['Home'].includes(l.name));
  return `click ${rng.pick(content.length ? content : links).ref}`;
}
