// Types of what eslint.config.mjs exports besides the config itself, for src-main/layers.test.ts.
import type { Linter } from 'eslint';

/** The layers of src-main/, lowest first. */
export declare const LAYERS: string[][];
declare const config: Linter.Config[];
export default config;
