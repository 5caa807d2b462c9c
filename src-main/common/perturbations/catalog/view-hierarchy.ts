// An Android observation as a uiautomator view-hierarchy dump: `<hierarchy rotation="0">`
// holding `<node … bounds="[l,t][r,b]">` elements, one per line. Android kinds add system
// windows (dialogs, toasts, the keyboard) and rewrite bounds through these helpers, with
// the same attribute set and order uiautomator writes.

export type Bounds = [left: number, top: number, right: number, bottom: number];

export interface ViewNode {
  text?: string;
  resourceId?: string;
  className: string;
  packageName: string;
  contentDesc?: string;
  clickable?: boolean;
  focusable?: boolean;
  focused?: boolean;
  bounds: Bounds;
  children?: ViewNode[];
}

const BOUNDS = /bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"/;

export function boundsOf(line: string): Bounds | undefined {
  const m = BOUNDS.exec(line);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : undefined;
}

/** Screen size from the outermost node; a common phone size when the dump has none. */
export function screenOf(xml: string): { width: number; height: number } {
  const b = boundsOf(xml);
  return b && b[2] > 0 && b[3] > 0 ? { width: b[2], height: b[3] } : { width: 1080, height: 2400 };
}

/** The foreground app's package, from the first node that names one. */
export function appPackageOf(xml: string): string {
  return /package="([\w.]+)"/.exec(xml)?.[1] ?? 'com.example.app';
}

/** A readable app name from a package id: com.example.mail → Mail. */
export function appLabelOf(pkg: string): string {
  const last = pkg.split('.').pop() ?? pkg;
  return last.charAt(0).toUpperCase() + last.slice(1);
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderNodes(nodes: ViewNode[], depth: number, startIndex = 0): string[] {
  const out: string[] = [];
  nodes.forEach((n, i) => {
    const attrs =
      `index="${startIndex + i}" text="${escapeXml(n.text ?? '')}" resource-id="${n.resourceId ?? ''}" class="${n.className}" ` +
      `package="${n.packageName}" content-desc="${escapeXml(n.contentDesc ?? '')}" checkable="false" checked="false" ` +
      `clickable="${n.clickable ?? false}" enabled="true" focusable="${n.focusable ?? n.clickable ?? false}" focused="${n.focused ?? false}" ` +
      `scrollable="false" long-clickable="false" password="false" selected="false" ` +
      `bounds="[${n.bounds[0]},${n.bounds[1]}][${n.bounds[2]},${n.bounds[3]}]"`;
    const pad = '  '.repeat(depth);
    if (!n.children || n.children.length === 0) {
      out.push(`${pad}<node ${attrs} />`);
    } else {
      out.push(`${pad}<node ${attrs}>`, ...renderNodes(n.children, depth + 1), `${pad}</node>`);
    }
  });
  return out;
}

function hierarchyParts(xml: string): { before: string[]; inner: string[]; after: string[] } {
  const lines = xml.replace(/\s+$/, '').split('\n');
  const open = lines.findIndex((l) => /<hierarchy\b/.test(l));
  const close = lines.findIndex((l) => /<\/hierarchy>/.test(l));
  if (open < 0 || close < 0 || close <= open) return { before: [], inner: lines, after: [] };
  return { before: lines.slice(0, open + 1), inner: lines.slice(open + 1, close), after: lines.slice(close) };
}

/** The dump with the foreground window replaced, as when a system window takes focus. */
export function replaceWindow(xml: string, nodes: ViewNode[]): string {
  const { before, after } = hierarchyParts(xml);
  if (before.length === 0) return renderNodes(nodes, 0).join('\n');
  return [...before, ...renderNodes(nodes, 1), ...after].join('\n');
}

/** The dump with a window added on top of the app's (listed after it). */
export function addWindow(xml: string, nodes: ViewNode[]): string {
  const { before, inner, after } = hierarchyParts(xml);
  const topLevel = inner.filter((l) => /^\s{0,2}<node\b/.test(l)).length;
  return [...before, ...inner, ...renderNodes(nodes, before.length > 0 ? 1 : 0, topLevel), ...after].join('\n');
}

/** A centred system dialog with a title, an optional message and buttons in a row. */
export function systemDialog(
  screen: { width: number; height: number },
  pkg: string,
  parts: { title: string; titleId: string; message?: string; messageId?: string; buttons: { text: string; id: string }[] },
): ViewNode {
  const left = Math.round(screen.width * 0.07);
  const right = screen.width - left;
  const height = parts.message ? 620 : 480;
  const top = Math.round((screen.height - height) / 2);
  const rowTop = top + height - 140;
  const width = Math.floor((right - left - 80) / Math.max(1, parts.buttons.length));
  const children: ViewNode[] = [
    { text: parts.title, resourceId: parts.titleId, className: 'android.widget.TextView', packageName: pkg, bounds: [left + 60, top + 60, right - 60, top + 180] },
  ];
  if (parts.message) {
    children.push({ text: parts.message, resourceId: parts.messageId, className: 'android.widget.TextView', packageName: pkg, bounds: [left + 60, top + 200, right - 60, rowTop - 20] });
  }
  parts.buttons.forEach((b, i) => {
    const bl = left + 40 + i * width;
    children.push({ text: b.text, resourceId: b.id, className: 'android.widget.Button', packageName: pkg, clickable: true, bounds: [bl, rowTop, bl + width, rowTop + 110] });
  });
  return { className: 'android.widget.FrameLayout', packageName: pkg, bounds: [left, top, right, top + height], children };
}

/** Every `bounds` in the dump passed through `map`. */
export function mapBounds(xml: string, map: (b: Bounds) => Bounds): string {
  return xml.replace(new RegExp(BOUNDS.source, 'g'), (_m, l, t, r, b) => {
    const [nl, nt, nr, nb] = map([Number(l), Number(t), Number(r), Number(b)]);
    return `bounds="[${nl},${nt}][${nr},${nb}]"`;
  });
}
