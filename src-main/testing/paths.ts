// The project's own folders, for tests of any layer: the CLI finds them the same way, but a
// test below the CLI's layer may not import it (the layer order in eslint.config.mjs).
export { PROJECT_ROOT, RENDERER_DIR, RESOURCES_DIR } from '../cli/paths';
