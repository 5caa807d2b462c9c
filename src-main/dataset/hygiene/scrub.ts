// Scrubbing secrets and personal data out of examples before they leave the machine.
// API keys become a fixed marker; e-mail addresses and IPs become stand-ins from the
// ranges reserved for documentation (example.com, 192.0.2.0/24…), the same stand-in for
// the same original throughout one export, so observations stay realistic and
// consistent for training. The report says what was changed without repeating it.
import type { DatasetExample, ExampleMessage } from '../example';

export type ScrubKind = 'apiKey' | 'password' | 'email' | 'ip';

export interface ScrubChange {
  exampleId: string;
  message: number;
  kind: ScrubKind;
  /** The original, masked: enough to recognise it, not enough to use it. */
  found: string;
  replacedWith: string;
}

export interface ScrubReport {
  counts: Record<ScrubKind, number>;
  examplesChanged: number;
  /** The first changes, in order (the counts cover all of them). */
  changes: ScrubChange[];
  changesOmitted: number;
}

const MAX_LISTED = 1000;
export const API_KEY_MARKER = '[REDACTED_API_KEY]';
export const PASSWORD_MARKER = '[REDACTED_PASSWORD]';

// Provider formats first (documented prefixes), then generic "key = value" assignments.
const API_KEY_PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\bsk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,}/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
];
// The value only: the name and the punctuation around it are kept so the text still reads.
const ASSIGNED_SECRET = /(\b(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|password|passwd)["']?\s*[:=]\s*["']?)([^\s"',;}{)(]{8,})/gi;
const BEARER = /(\bBearer\s+)([A-Za-z0-9._~+/-]{20,}=*)/g;
// The password in a URL's user info (postgres://user:pw@host): a secret, and what follows
// the @ is a host, not an e-mail domain. Scheme and user name are kept so the text still reads.
const URL_PASSWORD = /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:@/?#]*:)([^\s@/?#]+)(?=@)/g;
// Not inside a URL's user info (`scheme://user@host` names a host, not a mailbox).
const EMAIL = /(?<!:\/\/[^\s/@]*)\b[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g;
const IPV4 = /(?<![\d.])(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?![\d.]*\d)/g;
const IPV6 = /(?<![\w:])(?:(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|(?:[0-9a-f]{1,4}:){1,7}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6})?)(?![\w:])/gi;

/** Addresses that identify nobody: reserved for examples, loopback, unspecified, broadcast. */
function isHarmlessIp(ip: string): boolean {
  return /^(?:127\.|0\.0\.0\.0$|255\.255\.255\.255$|192\.0\.2\.|198\.51\.100\.|203\.0\.113\.)/.test(ip) || /^::1?$/.test(ip) || /^2001:db8:/i.test(ip);
}
const isHarmlessEmailDomain = (domain: string) => /(?:^|\.)example\.(?:com|org|net)$/i.test(domain) || /\.(?:example|test|invalid|localhost)$/i.test(domain);

const DOC_NETS = ['192.0.2', '198.51.100', '203.0.113'];

export class Scrubber {
  private readonly emails = new Map<string, string>();
  private readonly ips = new Map<string, string>();
  readonly report: ScrubReport = { counts: { apiKey: 0, password: 0, email: 0, ip: 0 }, examplesChanged: 0, changes: [], changesOmitted: 0 };

  /** Returns the example with its messages scrubbed (the same object when nothing changed). */
  scrub(example: DatasetExample): DatasetExample {
    const messages = this.messages(example.messages, example.id, 0);
    const rejected = example.rejected ? this.messages(example.rejected.messages, example.id, example.messages.length) : null;
    if (messages === example.messages && (!rejected || rejected === example.rejected!.messages)) return example;
    this.report.examplesChanged++;
    return { ...example, messages, ...(rejected && example.rejected ? { rejected: { ...example.rejected, messages: rejected } } : {}) };
  }

  /** The messages scrubbed (the same array when nothing changed); `first` numbers them in the report. */
  private messages(list: ExampleMessage[], exampleId: string, first: number): ExampleMessage[] {
    let changed = false;
    const out = list.map((m, i) => {
      const at = first + i;
      const content = this.text(m.content, exampleId, at);
      const reasoning = m.reasoning === undefined ? undefined : this.text(m.reasoning, exampleId, at);
      // A tool call's arguments hold the action too (a command line, a URL): scrub every string in them.
      const toolCalls = m.toolCalls?.map((c) => ({ name: c.name, arguments: this.value(c.arguments, exampleId, at) as Record<string, unknown> }));
      const callsChanged = toolCalls !== undefined && JSON.stringify(toolCalls) !== JSON.stringify(m.toolCalls);
      if (content === m.content && reasoning === m.reasoning && !callsChanged) return m;
      changed = true;
      const next: ExampleMessage = { ...m, content };
      if (reasoning !== undefined) next.reasoning = reasoning;
      if (callsChanged) next.toolCalls = toolCalls;
      return next;
    });
    return changed ? out : list;
  }

  private value(v: unknown, exampleId: string, message: number): unknown {
    if (typeof v === 'string') return this.text(v, exampleId, message);
    if (Array.isArray(v)) return v.map((x) => this.value(x, exampleId, message));
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.value(x, exampleId, message)]));
    return v;
  }

  /** Scrubs one text, recording each change against the example and message it was found in. */
  text(input: string, exampleId: string, message: number): string {
    const record = (kind: ScrubKind, found: string, replacedWith: string) => {
      this.report.counts[kind]++;
      if (this.report.changes.length < MAX_LISTED) this.report.changes.push({ exampleId, message, kind, found: mask(kind, found), replacedWith });
      else this.report.changesOmitted++;
      return replacedWith;
    };
    let text = input;
    text = text.replace(URL_PASSWORD, (_m, head: string, password: string) => head + (password === PASSWORD_MARKER ? password : record('password', password, PASSWORD_MARKER)));
    for (const pattern of API_KEY_PATTERNS) text = text.replace(pattern, (m) => record('apiKey', m, API_KEY_MARKER));
    text = text.replace(ASSIGNED_SECRET, (_m, name: string, value: string) =>
      value === API_KEY_MARKER || value.startsWith('[REDACTED') ? name + value : name + record('apiKey', value, API_KEY_MARKER),
    );
    text = text.replace(BEARER, (_m, name: string, value: string) => name + record('apiKey', value, API_KEY_MARKER));
    text = text.replace(EMAIL, (m, domain: string) => (isHarmlessEmailDomain(domain) ? m : record('email', m, this.standIn(this.emails, m, (n) => `person${n}@example.com`))));
    text = text.replace(IPV4, (m) => (isHarmlessIp(m) ? m : record('ip', m, this.standIn(this.ips, m, ipv4StandIn))));
    text = text.replace(IPV6, (m) => (isHarmlessIp(m) || !/[0-9a-f]{1,4}:.*[0-9a-f]/i.test(m) ? m : record('ip', m, this.standIn(this.ips, m, (n) => `2001:db8::${(n + 1).toString(16)}`))));
    return text;
  }

  private standIn(map: Map<string, string>, original: string, make: (n: number) => string): string {
    let value = map.get(original);
    if (value === undefined) {
      value = make(map.size);
      map.set(original, value);
    }
    return value;
  }
}

function ipv4StandIn(n: number): string {
  // 762 usable documentation addresses; beyond them the marker says what was there.
  const net = DOC_NETS[Math.floor(n / 254)];
  return net ? `${net}.${(n % 254) + 1}` : '[REDACTED_IP]';
}

function mask(kind: ScrubKind, value: string): string {
  if (kind === 'email') {
    const [user, domain] = value.split('@') as [string, string];
    return `${user.slice(0, 1)}***@${domain.slice(0, 1)}***${domain.slice(domain.lastIndexOf('.'))}`;
  }
  if (kind === 'password') return `*** (${value.length} characters)`;
  if (kind === 'ip') return value.includes(':') ? `${value.split(':')[0]}:…` : value.replace(/\.\d+\.\d+$/, '.x.x');
  return `${value.slice(0, 4)}… (${value.length} characters)`;
}
