import { defineConfig, type Plugin } from 'vite';
import { vocabulary } from './src/vocabulary';

/** Writes dist/vocabulary.json: the ids the character can render, which the
 * core reads and publishes in hello.vocabulary (docs/view-protocol.md). */
function vocabularyFile(): Plugin {
  return {
    name: 'yui-vocabulary',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'vocabulary.json', source: JSON.stringify(vocabulary, null, 2) + '\n' });
    },
  };
}

export default defineConfig({
  plugins: [vocabularyFile()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    // Keep the .gitkeep that lets go:embed work on a fresh clone.
    copyPublicDir: true,
    // The VRM look's chunk (three.js, three-vrm: ~750 kB) is loaded only by
    // a pet wearing a VRM look (src/vrmhost.ts); every other chunk is far
    // below this.
    chunkSizeWarningLimit: 800,
    // dist/.vite/manifest.json: a window's shell reads it to preload its
    // role's chunk from the page's head (app/shell/page.go).
    manifest: true,
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
  },
});
