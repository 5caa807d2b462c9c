// Types of build-cli.mjs (plain JavaScript, so `npm install` runs it without compiling).
export declare const CLI_OUT_DIR: string;
/** Builds the CLI into out/cli/; resolves with the files written (those that changed). */
export declare function buildCli(options?: { clean?: boolean }): Promise<string[]>;
