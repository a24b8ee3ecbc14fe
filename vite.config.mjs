// Two builds of one page (SPEC §1): `dist/index.html` with external scripts (works under a
// strict CSP: script-src 'self' 'wasm-unsafe-eval'), and `dist/napkin.html`, one self-contained
// file that opens from disk. The wasm module is a classic script (MODULARIZE, wasm inlined),
// so it is added as a script tag rather than bundled: bundlers trip over its node branch.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import fs from 'node:fs';
import path from 'node:path';

const WASM_JS = path.resolve('build/wasm/napkin.js');

// The single file carries the wasm bytes as a Latin-1 string rather than base64: gzip then
// compresses them almost as well as the raw binary (base64 costs about a third more after
// gzip), which keeps dist/napkin.html inside its 280 KB budget. The page passes the decoded
// bytes to createNapkin({ wasmBinary }).
const DATA_URI = /wasmBinaryFile="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

function latin1Literal(bytes) {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x00) out += '\\x00';
    else if (b === 0x3c) out += '\\x3c'; // never "</script" or "<!--" inside the script
    else out += String.fromCharCode(b);
  }
  return out + '"';
}

function singleFileWasm(code) {
  const m = code.match(DATA_URI);
  if (!m) throw new Error('napkin.js has no inlined wasm; build it with -sSINGLE_FILE=1');
  const bytes = Buffer.from(m[1], 'base64');
  const glue = code.replace(DATA_URI, 'wasmBinaryFile=""');
  const loader =
    'var napkinWasmText=' + latin1Literal(bytes) + ';\n' +
    'function napkinWasmBytes(){var s=napkinWasmText,b=new Uint8Array(s.length);' +
    'for(var i=0;i<s.length;i++)b[i]=s.charCodeAt(i);return b}\n';
  return loader + glue.replace(/<\/script/gi, '<\\/script');
}

function napkinWasm(inline) {
  return {
    name: 'napkin-wasm',
    transformIndexHtml() {
      const code = fs.readFileSync(WASM_JS, 'utf8');
      if (inline) return [{ tag: 'script', children: singleFileWasm(code), injectTo: 'head' }];
      return [{ tag: 'script', attrs: { src: './napkin-wasm.js' }, injectTo: 'head' }];
    },
    generateBundle() {
      if (!inline) this.emitFile({ type: 'asset', fileName: 'napkin-wasm.js', source: fs.readFileSync(WASM_JS) });
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'embed')
    // The embed script: custom elements in one classic script; the Makefile prepends the wasm.
    return {
      publicDir: false,
      build: {
        outDir: 'build/embed',
        emptyOutDir: true,
        target: 'es2020',
        lib: { entry: path.resolve('web/embed.js'), formats: ['iife'], name: 'NapkinEmbed', fileName: () => 'napkin-embed.js' },
      },
    };
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
