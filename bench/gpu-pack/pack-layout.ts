// What the pack is called and how big it may be, shared by bench/gpu-pack/pack.ts and its test.

/** A lent machine's run carries at most 64 MiB beside the working tree; the issue leaves 4 MiB of room. */
export const PACK_LIMIT_BYTES = 60 * 1024 * 1024;
export const PACK_NAME = 'worldloom-gpu-pack';
export const PACK_ARCHIVE = `${PACK_NAME}.tar.xz`;
