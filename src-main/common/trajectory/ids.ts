// Time-ordered ids (UUID version 7 layout: 48-bit milliseconds, then a counter and random
// bits). Ids that grow with time keep SQLite's primary-key B-tree appending instead of
// splitting pages at random, which makes large imports several times faster than v4 UUIDs.
let lastMs = 0;
let counter = 0;
const hex: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const pool = new Uint8Array(8 * 4096);
let poolAt = pool.length;

function randomBytes8(): Uint8Array {
  if (poolAt + 8 > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const out = pool.subarray(poolAt, poolAt + 8);
  poolAt += 8;
  return out;
}

/** The id's first two groups (its milliseconds), written once per millisecond rather than once per id. */
let prefixMs = -1;
let prefix = '';

export function newId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      ms = ++lastMs;
      counter = 0;
    }
  } else {
    lastMs = ms;
    counter = 0;
  }
  if (ms !== prefixMs) {
    const t = ms.toString(16).padStart(12, '0');
    prefix = `${t.slice(0, 8)}-${t.slice(8)}-`;
    prefixMs = ms;
  }
  const r = randomBytes8();
  const seq = (0x7000 | counter).toString(16);
  const variant = hex[(r[0]! & 0x3f) | 0x80]!;
  return `${prefix}${seq}-${variant}${hex[r[1]!]}-${hex[r[2]!]}${hex[r[3]!]}${hex[r[4]!]}${hex[r[5]!]}${hex[r[6]!]}${hex[r[7]!]}`;
}
