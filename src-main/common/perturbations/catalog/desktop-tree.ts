// An OS observation as a desktop accessibility tree, linearized one element per line with
// tab-separated columns: tag, name, text, class, description, position (x, y), size
// (w, h). This is the layout desktop agents read (an AT-SPI dump of the whole screen).
// OS kinds put new windows on top of it: their rows come first, as the active window.

export interface DesktopElement {
  tag: string;
  name?: string;
  text?: string;
  className?: string;
  description?: string;
  at: [x: number, y: number];
  size: [w: number, h: number];
}

export const DESKTOP_HEADER = 'tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)';

export function renderRow(e: DesktopElement): string {
  return [e.tag, e.name ?? '', e.text ?? '', e.className ?? '', e.description ?? '', `(${e.at[0]}, ${e.at[1]})`, `(${e.size[0]}, ${e.size[1]})`].join('\t');
}

/** Screen size: the largest element size in the tree, else a full-HD screen. */
export function screenOf(observation: string): { width: number; height: number } {
  let width = 0;
  let height = 0;
  for (const m of observation.matchAll(/\((\d+), (\d+)\)\s*$/gm)) {
    width = Math.max(width, Number(m[1]));
    height = Math.max(height, Number(m[2]));
  }
  return width >= 640 && height >= 480 ? { width, height } : { width: 1920, height: 1080 };
}

/** The observation with a new window's rows first, as the active window, after the header. */
export function withWindowOnTop(observation: string, elements: DesktopElement[]): string {
  const lines = observation.replace(/\s+$/, '').split('\n');
  const hasHeader = lines[0]?.startsWith('tag\t') ?? false;
  const header = hasHeader ? [lines.shift()!] : [DESKTOP_HEADER];
  return [...header, ...elements.map(renderRow), ...lines].join('\n');
}

/** Only the given window, as when a secure desktop (UAC) hides everything else. */
export function onlyWindow(elements: DesktopElement[]): string {
  return [DESKTOP_HEADER, ...elements.map(renderRow)].join('\n');
}

/**
 * A dialog centred on screen: a frame, a heading, body labels and a row of buttons,
 * each row placed where it would be drawn.
 */
export function dialogWindow(
  screen: { width: number; height: number },
  parts: { title: string; app: string; body: string[]; fields?: { tag: string; name: string; text?: string }[]; buttons: string[]; tag?: string },
): DesktopElement[] {
  const w = 460;
  const rows = parts.body.length + (parts.fields?.length ?? 0);
  const h = 140 + rows * 36;
  const x = Math.round((screen.width - w) / 2);
  const y = Math.round((screen.height - h) / 2);
  const out: DesktopElement[] = [
    { tag: parts.tag ?? 'dialog', name: parts.title, className: parts.app, at: [x, y], size: [w, h] },
    { tag: 'label', name: parts.title, at: [x + 24, y + 20], size: [w - 48, 28] },
  ];
  let rowY = y + 60;
  for (const line of parts.body) {
    out.push({ tag: 'label', name: line, at: [x + 24, rowY], size: [w - 48, 28] });
    rowY += 36;
  }
  for (const f of parts.fields ?? []) {
    out.push({ tag: f.tag, name: f.name, text: f.text, at: [x + 24, rowY], size: [w - 48, 30] });
    rowY += 36;
  }
  const bw = 120;
  parts.buttons.forEach((b, i) => {
    out.push({ tag: 'push-button', name: b, at: [x + w - 24 - (parts.buttons.length - i) * (bw + 8), y + h - 52], size: [bw, 34] });
  });
  return out;
}
