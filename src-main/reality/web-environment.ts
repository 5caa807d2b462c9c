// A real web browser: Playwright driving Chromium (the system's, or WORLDLOOM_CHROMIUM).
// Actions are the browser tool's verbs on accessibility references — `goto URL`,
// `click REF`, `type REF TEXT`, `scroll up|down [PIXELS]`, `press KEY`, `back` — and the
// observation is the page as an accessibility snapshot in Playwright's "ai" mode, whose
// [ref=eN] labels the next action can use.
import { lookup } from 'node:dns/promises';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { recordStep, RealEnvironmentError, type RealEnvironment, type RealLogEntry, type RealStep } from './environment';

const PLAYWRIGHT = 'playwright-core';

export interface WebLimits {
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  /** Snapshot text kept; longer pages are cut with a marker. */
  maxSnapshotChars: number;
  /**
   * `host:port` pairs on this machine or its network that pages may reach anyway (a local
   * test server). Everything else on loopback, private, link-local or unspecified addresses
   * is refused.
   */
  allowHosts?: readonly string[];
}

/** Addresses a page must not reach: this machine, its private networks, link-local and reserved ranges. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether `address` (an IP literal) is loopback, private, link-local or reserved. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(ip);
  if (family === 0) return true;
  return PRIVATE.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a page may not load `url`, or null. Names are resolved: a name for 127.0.0.1 is 127.0.0.1. */
export async function webRefusal(url: string, allowHosts: readonly string[] = []): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return `${parsed.protocol} URLs are not reachable from the web environment`;
  const port = parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? '443' : '80');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (allowHosts.includes(`${host}:${port}`)) return null;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return null; // Chromium will fail to resolve it too, and say so.
    }
  }
  const inside = addresses.find(isPrivateAddress);
  return inside ? `${host} is ${inside}, an address on this machine or its private network, which the web environment does not reach` : null;
}

export const DEFAULT_WEB_LIMITS: WebLimits = { actionTimeoutMs: 10_000, navigationTimeoutMs: 30_000, maxSnapshotChars: 200_000 };

export function chromiumPath(): string {
  return process.env.WORLDLOOM_CHROMIUM ?? '/usr/bin/chromium';
}

export type WebAction =
  | { verb: 'goto'; url: string }
  | { verb: 'click'; ref: string }
  | { verb: 'type'; ref: string; text: string }
  | { verb: 'scroll'; dy: number }
  | { verb: 'press'; key: string }
  | { verb: 'back' };

const USAGE = 'Web actions: `goto URL`, `click REF`, `type REF TEXT`, `scroll up|down [PIXELS]`, `press KEY`, `back` (REF as in the snapshot, e.g. e12).';

/** Parses one action line; throws a message listing the verbs when it is not one. */
export function parseWebAction(action: string): WebAction {
  const text = action.trim();
  const [verb = '', ...rest] = text.split(/\s+/);
  const arg = text.slice(verb.length).trim();
  const ref = (s: string | undefined) => {
    const r = (s ?? '').replace(/^\[?ref=/, '').replace(/\]$/, '');
    if (!/^[a-z]*\d+(e\d+)?$/i.test(r)) throw new RealEnvironmentError(`"${s ?? ''}" is not an element reference. ${USAGE}`, 'bad-action');
    return r;
  };
  switch (verb.toLowerCase()) {
    case 'goto':
    case 'navigate':
      // No file: (the host's files), chrome: or other local schemes: the web environment is the web.
      if (!/^(https?:\/\/|about:blank$)/i.test(arg)) throw new RealEnvironmentError(`goto needs an http:// or https:// URL (or about:blank), not "${arg}". ${USAGE}`, 'bad-action');
      return { verb: 'goto', url: arg };
    case 'click':
      return { verb: 'click', ref: ref(rest[0]) };
    case 'type': {
      const target = ref(rest[0]);
      let typed = arg.slice(rest[0]!.length).trim();
      // A quoted text is JSON, so it can hold leading spaces or newlines.
      if (typed.startsWith('"')) {
        try {
          typed = JSON.parse(typed) as string;
        } catch {
          // Not JSON after all: type it as written.
        }
      }
      return { verb: 'type', ref: target, text: typed };
    }
    case 'scroll': {
      const direction = (rest[0] ?? 'down').toLowerCase();
      const pixels = rest[1] ? Number(rest[1]) : 600;
      if (!['up', 'down'].includes(direction) || !Number.isFinite(pixels)) throw new RealEnvironmentError(`scroll takes up or down and an optional number of pixels. ${USAGE}`, 'bad-action');
      return { verb: 'scroll', dy: direction === 'up' ? -pixels : pixels };
    }
    case 'press':
      if (!arg) throw new RealEnvironmentError(`press needs a key such as Enter. ${USAGE}`, 'bad-action');
      return { verb: 'press', key: arg };
    case 'back':
      return { verb: 'back' };
    default:
      throw new RealEnvironmentError(`Unknown web action "${verb}". ${USAGE}`, 'bad-action');
  }
}

export class WebEnvironment implements RealEnvironment {
  readonly domain = 'web' as const;
  readonly log: RealLogEntry[] = [];
  readonly sandbox: string;
  private browser: Browser | null = null;
  private page: Page | null = null;
  /** Requests refused because of where they went, as `url: why`. */
  readonly refused: string[] = [];
  // Chromium refuses its own sandbox when run as root: started by root, it runs as nobody.
  private readonly asRoot = process.getuid?.() === 0;
  private wrapperDir: string | null = null;

  constructor(readonly limits: WebLimits = DEFAULT_WEB_LIMITS) {
    this.sandbox =
      "Chromium, headless, fresh profile, downloads refused, Chromium's own sandbox on" +
      (this.asRoot ? ', run as the unprivileged user nobody' : '') +
      '; no file:, loopback or private-network addresses';
  }

  /**
   * Root cannot run Chromium's sandbox. A small script started in its place drops to nobody
   * (setpriv) and hands it Playwright's fresh profile folder, so Chromium runs unprivileged
   * with its sandbox on; without setpriv, the browser is refused rather than run unsandboxed.
   */
  private unprivilegedChromium(executablePath: string): string {
    const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
    if (!setpriv) {
      throw new RealEnvironmentError(
        "Worldloom runs as root, and Chromium's sandbox cannot run as root; setpriv (util-linux), which would start it as an unprivileged user, is missing. Install util-linux, or run Worldloom as a normal user.",
        'start-failed',
      );
    }
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    this.wrapperDir = mkdtempSync(join(tmpdir(), 'wl-chromium-'));
    chmodSync(this.wrapperDir, 0o755);
    const wrapper = join(this.wrapperDir, 'chromium');
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'for a in "$@"; do case "$a" in --user-data-dir=*) chown -R 65534:65534 "${a#--user-data-dir=}";; esac; done',
        'export HOME=/tmp',
        `exec ${setpriv} --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- ${quote(executablePath)} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    return wrapper;
  }

  /** Every request and WebSocket of every page goes through this check first. */
  private async guard(context: BrowserContext): Promise<void> {
    const allow = this.limits.allowHosts ?? [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      const why = await webRefusal(url, allow);
      if (!why) return route.continue();
      this.refused.push(`${url}: ${why}`);
      return route.abort('blockedbyclient');
    });
    await context.routeWebSocket(/.*/, async (ws) => {
      const why = await webRefusal(ws.url(), allow);
      if (!why) return ws.connectToServer();
      this.refused.push(`${ws.url()}: ${why}`);
      return ws.close({ code: 1008, reason: 'refused by Worldloom' });
    });
  }

  async start(): Promise<string> {
    const executablePath = chromiumPath();
    if (!existsSync(executablePath)) {
      throw new RealEnvironmentError(`No Chromium at ${executablePath}. Install it (Debian: \`sudo apt-get install chromium\`) or set WORLDLOOM_CHROMIUM to a Chrome/Chromium binary.`, 'start-failed');
    }
    try {
      // Loaded from node_modules on first use, not bundled into the main process: Playwright
      // is large, resolves its own files at run time, and most sessions never open a browser.
      const { chromium } = (await import(/* @vite-ignore */ PLAYWRIGHT)) as typeof import('playwright-core');
      this.browser = await chromium.launch({
        executablePath: this.asRoot ? this.unprivilegedChromium(executablePath) : executablePath,
        headless: true,
        chromiumSandbox: true,
        args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    } catch (err) {
      if (err instanceof RealEnvironmentError) throw err;
      throw new RealEnvironmentError(`Chromium did not start: ${(err as Error).message.split('\n')[0]}`);
    }
    // Service workers would fetch past the routes below.
    const context = await this.browser.newContext({ acceptDownloads: false, viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    await this.guard(context);
    this.page = await context.newPage();
    this.page.setDefaultTimeout(this.limits.actionTimeoutMs);
    this.page.setDefaultNavigationTimeout(this.limits.navigationTimeoutMs);
    return this.snapshot();
  }

  description(): string {
    return (
      'Web environment recorded by Worldloom: a Chromium browser (1280×800). Each action is one of `goto URL`, `click REF`, ' +
      '`type REF TEXT`, `scroll up|down [PIXELS]`, `press KEY`, `back`; each observation is the page URL and title followed by ' +
      'its accessibility snapshot, where [ref=eN] names the elements an action can use.'
    );
  }

  step(action: string): Promise<RealStep> {
    return recordStep(this.log, action, () => this.act(action));
  }

  private async act(action: string): Promise<RealStep> {
    const page = this.page;
    if (!page) throw new RealEnvironmentError('The browser is not running; start a new real environment.');
    const parsed = parseWebAction(action);
    let error: string | undefined;
    try {
      if (parsed.verb === 'goto') await page.goto(parsed.url);
      else if (parsed.verb === 'click') await page.getByRef(parsed.ref).click();
      else if (parsed.verb === 'type') await page.getByRef(parsed.ref).fill(parsed.text);
      else if (parsed.verb === 'scroll') await page.mouse.wheel(0, parsed.dy);
      else if (parsed.verb === 'press') await page.keyboard.press(parsed.key);
      else await page.goBack();
      await page.waitForLoadState('domcontentloaded').catch(() => {});
    } catch (err) {
      // A failed action is part of what the environment did: the agent sees the error and the page.
      error = (err as Error).message.split('\n')[0];
    }
    const snapshot = await this.snapshot();
    return { observation: error ? `Error: ${error}\n\n${snapshot}` : snapshot, details: { web: { verb: parsed.verb, ...(error ? { error } : {}) } } };
  }

  private async snapshot(): Promise<string> {
    const page = this.page!;
    let tree = await page.ariaSnapshot({ mode: 'ai', timeout: this.limits.actionTimeoutMs });
    if (tree.length > this.limits.maxSnapshotChars) tree = `${tree.slice(0, this.limits.maxSnapshotChars)}\n[snapshot truncated at ${this.limits.maxSnapshotChars} characters]`;
    return `URL: ${page.url()}\nTitle: ${await page.title()}\n\n${tree}`;
  }

  async dispose(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    this.page = null;
    await browser?.close().catch(() => {});
    if (this.wrapperDir) rmSync(this.wrapperDir, { recursive: true, force: true });
    this.wrapperDir = null;
  }
}
