// How `npm run package` (native/package-app.mjs) packs the desktop app with electron-builder:
// AppImage and .deb on Linux, .dmg on macOS (arm64 and x64), an NSIS installer on Windows.
// Each OS is packed on its own machine (.github/workflows/release.yml): native modules and
// node-llama-cpp's GPU builds are the ones npm installed for that OS.
//
// Inside the asar: the built main process, preload and renderer (out/), package.json and the
// production node_modules. Unpacked beside it (app.asar.unpacked): every native module, since
// a .node file, the shared libraries it loads and the files it opens by path cannot be read
// from inside an archive. The embedded model and the prompts, judges and demo files
// (resources/) are copied as files into the app's resources folder (process.resourcesPath/
// worldloom), where onnxruntime and llama.cpp open them by path like any other model folder.

/** Native modules and what of each is unpacked; the packaging test loads each from its unpacked path. */
export const NATIVE_MODULES = ['better-sqlite3', 'node-pty', 'onnxruntime-node', 'node-llama-cpp', '@node-llama-cpp'];

/** @type {import('electron-builder').Configuration} */
export const config = {
  appId: 'org.worldloom.studio',
  productName: 'Worldloom',
  copyright: 'Apache-2.0',
  directories: { output: 'release', buildResources: 'build-resources' },
  // better-sqlite3 is the one module on Node's ABI rather than N-API: package-app.mjs ships its
  // Electron build (native/electron-native.mjs) as an extra resource instead of rebuilding the
  // project's node_modules in place, which would leave the CLI and the tests a module for the wrong ABI.
  npmRebuild: false,
  files: [
    'package.json',
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    '!**/*.map',
    // Sources, build trees and tests of the native modules: only what loads at run time.
    '!**/node_modules/{better-sqlite3,node-pty}/{src,deps,test}/**',
    '!**/node_modules/better-sqlite3/build/Release/{obj,obj.target,.deps,test_extension.node}/**',
    '!**/node_modules/node-pty/{scripts,third_party}/**',
    // The renderer's packages are inside its Vite bundle (out/renderer); the main process never loads them.
    '!**/node_modules/{monaco-editor,@monaco-editor,react,react-dom,scheduler,zustand,dompurify,marked,state-local}/**',
    '!**/node_modules/@xterm/{xterm,addon-fit}/**',
    // Prebuilt binaries for the other operating systems and architectures.
    '!**/node_modules/node-pty/prebuilds/**',
    'node_modules/node-pty/prebuilds/${platform}-${arch}/**',
    '!**/node_modules/onnxruntime-node/bin/napi-v6/**',
    'node_modules/onnxruntime-node/bin/napi-v6/${platform}/${arch}/**',
    '!**/node_modules/@node-llama-cpp/**',
    'node_modules/@node-llama-cpp/${os}-${arch}{,-metal,-vulkan}/**',
  ],
  asarUnpack: [
    '**/*.node',
    'node_modules/better-sqlite3/**',
    'node_modules/node-pty/**',
    'node_modules/onnxruntime-node/**',
    'node_modules/node-llama-cpp/**',
    'node_modules/@node-llama-cpp/**',
  ],
  extraResources: [
    { from: 'resources', to: 'worldloom', filter: ['**/*', '!screenshots/**'] },
    { from: 'node_modules/.worldloom-electron/better_sqlite3.node', to: 'native/better_sqlite3.node' },
  ],
  linux: { target: ['AppImage', 'deb'], category: 'Development', maintainer: 'Worldloom maintainers', executableName: 'worldloom-studio' },
  deb: { packageName: 'worldloom-studio' },
  mac: { target: [{ target: 'dmg', arch: ['arm64', 'x64'] }], category: 'public.app-category.developer-tools' },
  win: { target: [{ target: 'nsis', arch: ['x64'] }] },
  nsis: { oneClick: false, allowToChangeInstallationDirectory: true },
  publish: null,
};

export default config;
