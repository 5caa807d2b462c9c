import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, DEFAULT_WEB_LIMITS, isPrivateAddress, parseWebAction, webRefusal, WebEnvironment } from './web-environment';

const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Shop</title><h1>Welcome</h1><a href="/cart">Cart</a>
    <label>Search <input name="q"></label><button onclick="document.querySelector('p').textContent='Searched: '+document.querySelector('input').value">Go</button><p></p>`,
  '/cart': '<!doctype html><title>Cart</title><h1>Your cart is empty</h1>',
  // A page that tries to read this machine: another local port, by address and by name, and a file.
  '/probe': `<!doctype html><title>Probe</title><img src="SECRET/img"><iframe src="file:///etc/passwd"></iframe>
    <script>fetch('SECRET/fetch').catch(() => {}); fetch('SECRET_BY_NAME/fetch').catch(() => {}); try { new WebSocket('SECRET_WS/ws'); } catch {}</script>`,
};

const noChromium = existsSync(chromiumPath()) ? '' : ` — skipped: no Chromium at ${chromiumPath()}`;

describe('web actions', () => {
  it('parses the verbs and explains a wrong one', () => {
    expect(parseWebAction('goto https://example.org/a b')).toEqual({ verb: 'goto', url: 'https://example.org/a b' });
    expect(parseWebAction('click e12')).toEqual({ verb: 'click', ref: 'e12' });
    expect(parseWebAction('type [ref=e3] "  two words"')).toEqual({ verb: 'type', ref: 'e3', text: '  two words' });
    expect(parseWebAction('scroll up 200')).toEqual({ verb: 'scroll', dy: -200 });
    expect(() => parseWebAction('hover e1')).toThrow(/Unknown web action "hover"/);
    expect(() => parseWebAction('goto example')).toThrow(/needs an http:\/\/ or https:\/\/ URL/);
    // The host's files and the browser's own pages are not the web.
    expect(() => parseWebAction('goto file:///etc/shadow')).toThrow(/needs an http:\/\/ or https:\/\/ URL/);
    expect(() => parseWebAction('goto chrome://version')).toThrow(/needs an http/);
  });

  it('refuses loopback, private and link-local addresses, by address or by name', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
    expect(await webRefusal('http://localhost:9/')).toMatch(/localhost is (127\.0\.0\.1|::1), an address on this machine/);
    expect(await webRefusal('http://[::1]:9/')).toMatch(/::1/);
    expect(await webRefusal('file:///etc/shadow')).toMatch(/file: URLs are not reachable/);
    expect(await webRefusal('http://127.0.0.1:9/', ['127.0.0.1:9'])).toBeNull();
  });
});

describe.skipIf(noChromium !== '')(`a real browser${noChromium}`, () => {
  let server: Server;
  let secret: Server;
  let base = '';
  let secretBase = '';
  /** Requests the other local server received: none may come from the browser. */
  const leaked: string[] = [];
  let env: WebEnvironment;
  beforeAll(async () => {
    secret = createServer((req, res) => {
      leaked.push(req.url ?? '');
      res.end('secret');
    });
    secret.on('upgrade', (req, socket) => {
      leaked.push(req.url ?? '');
      socket.destroy();
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    const secretPort = (secret.address() as { port: number }).port;
    secretBase = `http://127.0.0.1:${secretPort}`;
    server = createServer((req, res) => {
      const page = PAGES[req.url ?? '']?.replaceAll('SECRET_BY_NAME', `http://localhost:${secretPort}`).replaceAll('SECRET_WS', `ws://127.0.0.1:${secretPort}`).replaceAll('SECRET', secretBase);
      res.writeHead(page ? 200 : 404, { 'content-type': 'text/html' }).end(page ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
    // The test's own page server is allowed by name; the other local server is not.
    env = new WebEnvironment({ ...DEFAULT_WEB_LIMITS, actionTimeoutMs: 2000, allowHosts: [`127.0.0.1:${port}`] });
    await env.start();
  }, 60_000);
  afterAll(async () => {
    await env?.dispose();
    server?.close();
    secret?.close();
  });

  const refOf = (snapshot: string, pattern: RegExp) => pattern.exec(snapshot)?.[1] ?? '';

  it('goes to a page, types, clicks and follows a link, observing the accessibility snapshot', async () => {
    const home = await env.step(`goto ${base}/`);
    expect(home.observation).toMatch(/^URL: http:\/\/127\.0\.0\.1:\d+\/\nTitle: Shop\n/);
    expect(home.observation).toMatch(/heading "Welcome"/);
    const box = refOf(home.observation, /textbox "Search" \[ref=(\w+)\]/);
    const typed = await env.step(`type ${box} shoes`);
    expect(typed.observation).toMatch(/textbox "Search" (\[active\] )?\[ref=\w+\]: shoes/);
    const go = refOf(typed.observation, /button "Go" \[ref=(\w+)\]/);
    expect((await env.step(`click ${go}`)).observation).toMatch(/Searched: shoes/);
    const link = refOf(typed.observation, /link "Cart" \[ref=(\w+)\]/);
    const cart = await env.step(`click ${link}`);
    expect(cart.observation).toMatch(/Title: Cart/);
    expect((await env.step('scroll down')).observation).toMatch(/Your cart is empty/);
    expect(env.log.map((e) => e.action.split(' ')[0])).toEqual(['goto', 'type', 'click', 'click', 'scroll']);
  });

  it('keeps a failed action as an error in the observation', async () => {
    const step = await env.step('click e9999');
    expect(step.observation).toMatch(/^Error: /);
    expect(step.details).toMatchObject({ web: { verb: 'click' } });
  });

  it('reaches nothing on this machine: another local port by address or name, by navigation, fetch, image or WebSocket', async () => {
    const direct = await env.step(`goto ${secretBase}/direct`);
    expect(direct.observation).toMatch(/^Error: .*ERR_BLOCKED_BY_CLIENT/);
    const probe = await env.step(`goto ${base}/probe`);
    expect(probe.observation).toMatch(/Title: Probe/);
    await expect.poll(() => env.refused.length).toBeGreaterThanOrEqual(4);
    expect(env.refused.join('\n')).toMatch(/localhost:\d+\/fetch: localhost is/);
    expect(leaked).toEqual([]);
  });

  it("runs Chromium with its own sandbox on, as an unprivileged user when started by root", () => {
    expect(env.sandbox).toMatch(/Chromium's own sandbox on/);
    if (process.getuid?.() === 0) expect(env.sandbox).toMatch(/run as the unprivileged user nobody/);
  });
});
