#!/usr/bin/env node
// The CLI from source, through tsx, with no build: for working on the CLI. What `npx worldloom`
// runs (package.json's bin) is the build of the same source, out/cli/worldloom.js (build-cli.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
