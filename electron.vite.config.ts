import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

// electron-vite builds the three parts of the desktop app: the main process (the core plus
// the Electron door), the preload (the only bridge into the sandboxed renderer), and the
// renderer (the React UI, which the host also serves to plain Chromium).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // import-worker reads terminal recordings off the main thread (src-main/formats/off-thread-import.ts);
      // model-probe-child opens a model file once in a child process before the app loads it (src-main/engine/model-probe.ts).
      lib: {
        entry: {
          main: resolve(__dirname, 'src-main/electron/main.ts'),
          'import-worker': resolve(__dirname, 'src-main/formats/import-worker.ts'),
          'model-probe-child': resolve(__dirname, 'src-main/engine/model-probe-child.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(__dirname, 'src-main/electron/preload.ts') },
      // A sandboxed preload must be a single CommonJS file.
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
