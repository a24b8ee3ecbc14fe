// Two builds of one page (SPEC §1): `dist/index.html` with external scripts (works under a
// strict CSP: script-src 'self' 'wasm-unsafe-eval'), and `dist/napkin.html`, one self-contained
// file that opens from disk. The wasm module is a classic script (MODULARIZE, wasm inlined),
// so it is added as a script tag rather than bundled: bundlers trip over its node branch.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import fs from 'node:fs';
import path from 'node:path';

const WASM_JS = path.resolve('build/wasm/napkin.js');

function napkinWasm(inline) {
  return {
    name: 'napkin-wasm',
    transformIndexHtml() {
      const code = fs.readFileSync(WASM_JS, 'utf8');
      if (inline) {
        // "</script" inside the code would end the tag early; escape it the standard way.
        return [{ tag: 'script', children: code.replace(/<\/script/gi, '<\\/script'), injectTo: 'head' }];
      }
      return [{ tag: 'script', attrs: { src: './napkin-wasm.js' }, injectTo: 'head' }];
    },
    generateBundle() {
      if (!inline) this.emitFile({ type: 'asset', fileName: 'napkin-wasm.js', source: fs.readFileSync(WASM_JS) });
    },
  };
}

export default defineConfig(({ mode }) => {
  const single = mode === 'singlefile';
  return {
    base: './',
    publicDir: false,
    plugins: single ? [napkinWasm(true), viteSingleFile()] : [napkinWasm(false)],
    build: {
      outDir: single ? 'build/single' : 'dist',
      emptyOutDir: true,
      target: 'es2020',
      assetsInlineLimit: single ? 100000000 : 4096,
      // The single file holds the main page only; embed.html is for iframes from a server.
      rollupOptions: {
        input: single ? path.resolve('index.html') : { index: path.resolve('index.html'), embed: path.resolve('embed.html') },
      },
    },
  };
});
