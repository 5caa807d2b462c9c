// Small local web shops the data script serves on 127.0.0.1 for the web recorder to browse:
// home, product list, product pages with an add-to-cart form, cart, search, sign-in and
// contact forms, and a not-found page. Each store number has its own name, products and
// prices (derived from the number alone), so sessions on different stores differ and a
// model must read the page it was shown rather than remember one site. Plain HTML forms
// that post and redirect: no scripts, nothing timed, so the same actions give the same
// pages. Cart and sign-in live in a cookie-keyed session, fresh for every browser.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Rng } from './rng';

const ADJECTIVES = ['Tiny', 'Green', 'Corner', 'Blue', 'Happy', 'Urban', 'Old Town', 'Bright', 'Little', 'North'];
const NOUNS = ['Shop', 'Market', 'Store', 'Bazaar', 'Outlet', 'Goods', 'Supply', 'Emporium'];
const PRODUCTS = ['Coffee Mug', 'Notebook', 'Desk Lamp', 'Water Bottle', 'Backpack', 'Headphones', 'Pencil Set', 'Tea Kettle',
  'Umbrella', 'Wall Clock', 'Phone Stand', 'Yoga Mat', 'Chess Set', 'Plant Pot', 'Scarf', 'Sunglasses', 'Keyboard', 'Mouse Pad',
  'Travel Pillow', 'Candle', 'Cutting Board', 'Rain Jacket', 'Bike Light', 'Picture Frame'];
const QUALITIES = ['sturdy', 'lightweight', 'handmade', 'recycled', 'compact', 'classic', 'colourful', 'quiet'];

export interface Product {
  id: number;
  name: string;
  price: string;
  description: string;
}

export interface Store {
  name: string;
  products: Product[];
}

/** The store with this number: the same number always gives the same store. */
export function storeFor(n: number): Store {
  const rng = new Rng(0x5eed ^ Math.imul(n + 1, 2654435761));
  const names = [...PRODUCTS];
  const count = rng.int(3, 6);
  const products: Product[] = [];
  for (let i = 0; i < count; i++) {
    const name = names.splice(rng.int(0, names.length - 1), 1)[0]!;
    const price = `$${rng.int(3, 120)}.${String(rng.pick([0, 49, 50, 95, 99])).padStart(2, '0')}`;
    products.push({ id: rng.int(100, 999) + i * 1000, name, price, description: `A ${rng.pick(QUALITIES)} ${name.toLowerCase()}.` });
  }
  return { name: `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`, products };
}

interface Session {
  cart: number[];
  user: string | null;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(store: Store, base: string, title: string, body: string, session: Session): string {
  const nav =
    `<nav><a href="${base}/">Home</a> <a href="${base}/products">Products</a> <a href="${base}/search">Search</a> ` +
    `<a href="${base}/cart">Cart (${session.cart.length})</a> ` +
    (session.user ? `<span>Signed in as ${esc(session.user)}</span>` : `<a href="${base}/login">Sign in</a>`) +
    ` <a href="${base}/contact">Contact</a></nav>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} - ${esc(store.name)}</title></head>` +
    `<body><header><p>${esc(store.name)}</p>${nav}</header><main>${body}</main></body></html>`;
}

function productList(base: string, products: readonly Product[]): string {
  return `<ul>${products.map((p) => `<li><a href="${base}/product/${p.id}">${esc(p.name)}</a> ${p.price}</li>`).join('')}</ul>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

/** One request: the page, or a redirect after a form was posted. */
async function respond(req: IncomingMessage, res: ServerResponse, sessions: Map<string, Session>, nextSid: () => string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const cookie = /(?:^|;\s*)sid=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
  let sid = cookie && sessions.has(cookie) ? cookie : null;
  if (!sid) {
    sid = nextSid();
    sessions.set(sid, { cart: [], user: null });
    res.setHeader('Set-Cookie', `sid=${sid}; Path=/; HttpOnly`);
  }
  const session = sessions.get(sid)!;
  const send = (status: number, html: string) => {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  };
  const redirect = (to: string) => {
    res.writeHead(303, { Location: to });
    res.end();
  };
  const m = /^\/store\/(\d+)(\/.*)?$/.exec(url.pathname);
  if (!m) {
    send(404, '<!doctype html><html lang="en"><head><title>Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>');
    return;
  }
  const n = Number(m[1]);
  const store = storeFor(n);
  const base = `/store/${n}`;
  const path = m[2] ?? '/';
  const product = (id: string | null | undefined) => store.products.find((p) => String(p.id) === id);
  const flash = url.searchParams.get('msg');
  const notice = flash ? `<p role="status">${esc(flash)}</p>` : '';

  if (req.method === 'POST') {
    const form = await formBody(req);
    if (path === '/cart/add') {
      const p = product(form.get('id'));
      if (p) session.cart.push(p.id);
      return redirect(`${base}/cart?msg=${encodeURIComponent(p ? `${p.name} added to your cart.` : 'That product no longer exists.')}`);
    }
    if (path === '/cart/clear') {
      session.cart = [];
      return redirect(`${base}/cart?msg=${encodeURIComponent('Your cart is empty now.')}`);
    }
    if (path === '/login') {
      const user = (form.get('username') ?? '').trim();
      if (!user || form.get('password') !== 'secret') return redirect(`${base}/login?msg=${encodeURIComponent('Wrong username or password.')}`);
      session.user = user;
      return redirect(`${base}/?msg=${encodeURIComponent(`Welcome back, ${user}!`)}`);
    }
    if (path === '/contact') {
      const name = (form.get('name') ?? '').trim();
      const email = (form.get('email') ?? '').trim();
      if (!name || !/^[^@\s]+@[^@\s]+\.\w+$/.test(email)) return redirect(`${base}/contact?msg=${encodeURIComponent('Please give your name and a valid email address.')}`);
      return redirect(`${base}/?msg=${encodeURIComponent(`Thanks, ${name}! We will reply to ${email}.`)}`);
    }
  }
  if (path === '/') {
    const featured = store.products.slice(0, 2);
    return send(200, page(store, base, 'Home', `<h1>Welcome to ${esc(store.name)}</h1>${notice}<p>Everyday things at fair prices.</p><h2>Featured</h2>${productList(base, featured)}`, session));
  }
  if (path === '/products') return send(200, page(store, base, 'Products', `<h1>Products</h1><p>${store.products.length} products</p>${productList(base, store.products)}`, session));
  const pm = /^\/product\/(\d+)$/.exec(path);
  if (pm) {
    const p = product(pm[1]);
    if (!p) return send(404, page(store, base, 'Not found', '<h1>Product not found</h1><p>This product does not exist.</p>', session));
    return send(200, page(store, base, p.name,
      `<h1>${esc(p.name)}</h1><p>Price: ${p.price}</p><p>${esc(p.description)}</p>` +
      `<form method="post" action="${base}/cart/add"><input type="hidden" name="id" value="${p.id}"><button type="submit">Add to cart</button></form>` +
      `<a href="${base}/products">Back to products</a>`, session));
  }
  if (path === '/cart') {
    const items = session.cart.map((id) => product(String(id))!);
    const total = items.reduce((sum, p) => sum + Number(p.price.slice(1)), 0);
    const body = items.length
      ? `<ul>${items.map((p) => `<li>${esc(p.name)} ${p.price}</li>`).join('')}</ul><p>Total: $${total.toFixed(2)}</p>` +
        `<form method="post" action="${base}/cart/clear"><button type="submit">Clear cart</button></form>`
      : '<p>Your cart is empty.</p>';
    return send(200, page(store, base, 'Cart', `<h1>Your cart</h1>${notice}${body}`, session));
  }
  if (path === '/search') {
    const q = (url.searchParams.get('q') ?? '').trim();
    const hits = q ? store.products.filter((p) => p.name.toLowerCase().includes(q.toLowerCase())) : [];
    const results = q ? (hits.length ? `<h2>${hits.length} result${hits.length === 1 ? '' : 's'} for "${esc(q)}"</h2>${productList(base, hits)}` : `<p>No products match "${esc(q)}".</p>`) : '';
    return send(200, page(store, base, 'Search',
      `<h1>Search</h1><form method="get" action="${base}/search"><input type="search" name="q" aria-label="Search products" value="${esc(q)}"><button type="submit">Search</button></form>${results}`, session));
  }
  if (path === '/login') {
    return send(200, page(store, base, 'Sign in',
      `<h1>Sign in</h1>${notice}<form method="post" action="${base}/login"><label>Username <input name="username"></label>` +
      `<label>Password <input type="password" name="password"></label><button type="submit">Sign in</button></form>`, session));
  }
  if (path === '/contact') {
    return send(200, page(store, base, 'Contact',
      `<h1>Contact us</h1>${notice}<form method="post" action="${base}/contact"><label>Name <input name="name"></label>` +
      `<label>Email <input name="email"></label><label>Message <textarea name="message"></textarea></label><button type="submit">Send</button></form>`, session));
  }
  send(404, page(store, base, 'Not found', '<h1>Page not found</h1><p>Sorry, there is no page at this address.</p>', session));
}

/** Serves the stores on 127.0.0.1:`port`; the port is fixed so recorded URLs are the same on every run. */
export async function serveStores(port: number): Promise<{ origin: string; close: () => Promise<void> }> {
  const sessions = new Map<string, Session>();
  let counter = 0;
  const server: Server = createServer((req, res) => {
    respond(req, res, sessions, () => `s${++counter}`).catch((err: Error) => {
      res.writeHead(500);
      res.end(err.message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `Port ${port} on 127.0.0.1 is taken; pass another with --web-port.` : err.message)));
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
