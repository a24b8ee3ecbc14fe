// Two builds of one page (README): `dist/index.html` with external scripts (works under a
// strict CSP: script-src 'self' 'wasm-unsafe-eval'), and `dist/napkin.html`, one self-contained
// file that opens from disk. The wasm module is a classic script (MODULARIZE, wasm inlined),
// so it is added as a script tag rather than bundled: bundlers trip over its node branch.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { minify } from 'terser';
import { splitWasm } from './wasm/split.mjs';

const WASM_JS = path.resolve('build/wasm/napkin.js');

// Each card's "Formula, sources and assumptions" comes from its section of docs/<area>.md
// (a `## <estimator id>` heading), rendered to HTML here at build time with marked, so the page
// ships no markdown parser. Only the text of the repository's own docs becomes markup. Links
// between docs pages become plain text (the page has no docs/ folder beside it), and the worked
// examples are named as such. The result, {id: html}, loads when a card's docs first open
// (lazyData below), in the single file as in the served page.
async function renderedDocs() {
  const { marked } = await import('marked');
  const sections = {};
  for (const file of fs.readdirSync('docs').filter((f) => f.endsWith('.md')).sort()) {
    const text = fs.readFileSync(path.join('docs', file), 'utf8');
    const parts = text.split(/^## /m).slice(1);
    for (const part of parts) {
      const nl = part.indexOf('\n');
      const head = part.slice(0, nl).trim();
      if (!/^[a-z]+\.[a-z_]+$/.test(head)) continue;
      // The page carries what a reader of one card needs: question, formulas, sources,
      // assumptions and limits. The study notes' cross-references, answer keys and test
      // tables stay in docs/.
      let body = part.slice(nl + 1).split(/\n\s*\n/)
        .filter((p) => !/^\s*(\*\*)?(Seeds?\b|Answers|Charts|Tests?\b|Worked example|Published check|Problems?\b|The seed|Seed's)/i.test(p))
        .filter((p) => !/^\s*\|/.test(p))
        .join('\n\n')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\(seeds? \d{3}[^)]*\)/gi, '')
        .replace(/\bseeds? \d{3}(?:['’]s)?(?: §[\d.]+)*/gi, 'a worked example')
        .replace(/\bthe seed['’]s\b/gi, "the worked example's")
        .replace(/\bthe seeds['’]/gi, "the worked examples'")
        .replace(/\bthe seed\b/gi, 'the worked example');
      sections[head] = marked.parse(body, { gfm: true }).replace(/\n+/g, '\n');
    }
  }
  return JSON.stringify(sections);
}

// The built-in practice bank (problems/*.json, in name order, as the CLI and tests load it):
// one file {"napkin_problems": 1, "problems": [...]}.
function problemBundle() {
  const dir = path.resolve('problems');
  const problems = [];
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort())
    problems.push(...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).problems);
  return JSON.stringify({ napkin_problems: 1, problems });
}

// Data loaded on first use (web/lazy-data.js), not part of the first screen: a served page
// fetches NAME.json beside it; the single file carries the text deflated by zopfli as an inert
// base64 blob, <script type="application/octet-stream" id="napkin-NAME">, that no one parses
// until the page asks for it.
// Each part is {file, make}: `make` gives its text or bytes, `file` the name a served page
// fetches.
function lazyData(inline, parts) {
  return {
    name: 'napkin-lazy-data',
    async transformIndexHtml(html, ctx) {
      if (!inline || !ctx.filename.endsWith('index.html')) return undefined;
      const tags = [];
      for (const [name, { make }] of Object.entries(parts)) {
        const packed = deflated(Buffer.from(await make())).toString('base64');
        tags.push({ tag: 'script', attrs: { type: 'application/octet-stream', id: 'napkin-' + name }, children: packed, injectTo: 'body' });
      }
      return tags;
    },
    async generateBundle() {
      if (inline) return;
      for (const { file, make } of Object.values(parts)) this.emitFile({ type: 'asset', fileName: file, source: await make() });
    },
  };
}

// The single file carries the wasm deflated by zopfli (Debian's `zopfli`: the densest deflate
// encoder, 175 KB where gzip -9 gives 184 KB) as base64. Compressed bytes cost almost nothing
// more as base64 once the page itself is gzipped (+0.4 %), where the Latin-1 text the page
// carried before cost 4 % over plain gzip. The browser inflates them natively with
// DecompressionStream('deflate-raw') in a few milliseconds, so no decoder ships; the page
// gets a promise of the compiled module from napkinWasmModule() (or of the bytes from
// napkinWasmBytes()) and passes it to createNapkin({ wasmModule }) (or { wasmBinary }).
// The inflation starts when the script is parsed: `make bench` put the first result 30–50 ms
// sooner with that and the native base64 decode (best of 7 loads each, on a loaded machine).
const DATA_URI = /wasmBinaryFile="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

function deflated(bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'napkin-wasm-'));
  const file = path.join(dir, 'napkin.wasm');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('zopfli', ['--deflate', '--i30', '-c', file], { maxBuffer: 1 << 26 });
  } catch {
    // Without zopfli (not a Debian machine) the page is the same, 9 KB larger.
    console.warn('zopfli not found: the wasm is deflated by zlib instead (about 9 KB larger)');
    return zlib.deflateRawSync(bytes, { level: 9 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Emscripten's glue without its inlined copy of the wasm, and the wasm's bytes.
async function wasmParts(jsText) {
  const m = jsText.match(DATA_URI);
  if (!m) throw new Error('napkin.js has no inlined wasm; build it with -sSINGLE_FILE=1');
  // Emscripten leaves its glue's local names long; terser (vite's minifier) shortens them:
  // 7.6 → 5.4 KB gzipped. Top-level names (createNapkin) stay.
  const glue = (await minify(jsText.replace(DATA_URI, 'wasmBinaryFile=""'), { compress: { passes: 2 }, mangle: true })).code;
  return { glue, bytes: Buffer.from(m[1], 'base64') };
}

// The page's module, split (wasm/split.mjs): the primary part in napkin-wasm.js, which the
// first screen waits for, and the deferred part (practice and search code), loaded on first use
// as lazy data. The embed uses the same two parts, as napkin.wasm.deflate and
// napkin-deferred.wasm.
async function splitParts(jsText) {
  const { glue, bytes } = await wasmParts(jsText);
  return { glue, ...splitWasm(bytes, jsText) };
}

async function singleFileWasm(jsText) {
  const { glue, primary } = await splitParts(jsText);
  const packed = deflated(primary).toString('base64');
  const loader =
    'var napkinWasmPacked="' + packed + '";\n' +
    // One promise, started as soon as this script is parsed (before the page's module runs):
    // the inflation overlaps the module's evaluation. Uint8Array.fromBase64 decodes natively
    // (Chromium 140+, Firefox 133+, Safari 18.2+); the loop is the fallback, ~15 ms slower.
    'function napkinWasmBytes(){if(napkinWasmBytes.p)return napkinWasmBytes.p;var b;' +
    'if(Uint8Array.fromBase64)b=Uint8Array.fromBase64(napkinWasmPacked);' +
    'else{var s=atob(napkinWasmPacked);b=new Uint8Array(s.length);for(var i=0;i<s.length;i++)b[i]=s.charCodeAt(i)}' +
    'return napkinWasmBytes.p=new Response(new Blob([b]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer()}\n' +
    // The compiled module, from the same bytes: compileStreaming compiles while the bytes are
    // still being inflated (and the page's module evaluates), where compiling after the last
    // byte added its whole time to the first result.
    'function napkinWasmModule(){if(napkinWasmModule.p)return napkinWasmModule.p;' +
    'var s=WebAssembly.compileStreaming&&typeof ReadableStream=="function"&&Uint8Array.fromBase64;' +
    'return napkinWasmModule.p=s?WebAssembly.compileStreaming(new Response(new Blob([Uint8Array.fromBase64(napkinWasmPacked)]).stream()' +
    '.pipeThrough(new DecompressionStream("deflate-raw")),{headers:{"Content-Type":"application/wasm"}})):napkinWasmBytes().then(function(b){return WebAssembly.compile(b)})}\n' +
    'napkinWasmModule();\n';
  return loader + glue.replace(/<\/script/gi, '<\\/script');
}

// A served page (dist/index.html, embed.html) and the embed script fetch the primary part as a
// file of its own, napkin.wasm.deflate: wasm/load-beside.js, prepended to the glue, loads it.
// A served page's <link rel="preload"> starts the download as its head is parsed. Carried as
// base64 inside napkin-wasm.js (as the single file must), the 290 KB script had to be parsed and
// run before the page's modules could: `make bench`'s http first result went from 507 to 407 ms
// (median of 7 loads each, interleaved).
async function servedWasm(jsText) {
  const { glue, primary, deferred } = await splitParts(jsText);
  const loader = (await minify(fs.readFileSync(path.resolve('wasm/load-beside.js'), 'utf8'), { compress: { passes: 2 }, mangle: true })).code;
  return { script: loader + '\n' + glue, deflate: deflated(primary), deferred };
}

function napkinWasm(inline) {
  return {
    name: 'napkin-wasm',
    async transformIndexHtml() {
      const code = fs.readFileSync(WASM_JS, 'utf8');
      // The id lets the page build the search's worker from this same script (web/search-worker.js).
      if (inline) return [{ tag: 'script', attrs: { id: 'napkin-wasm' }, children: await singleFileWasm(code), injectTo: 'head' }];
      return [
        { tag: 'link', attrs: { rel: 'preload', href: './napkin.wasm.deflate', as: 'fetch', crossorigin: 'anonymous' }, injectTo: 'head' },
        { tag: 'script', attrs: { id: 'napkin-wasm', src: './napkin-wasm.js' }, injectTo: 'head' },
      ];
    },
    async generateBundle() {
      if (inline) return;
      const { script, deflate } = await servedWasm(fs.readFileSync(WASM_JS, 'utf8'));
      this.emitFile({ type: 'asset', fileName: 'napkin-wasm.js', source: script });
      this.emitFile({ type: 'asset', fileName: 'napkin.wasm.deflate', source: deflate });
    },
  };
}

// The embed script carries Emscripten's glue and the loader but not the wasm: it compiles the
// core from beside itself while the host page loads, so the script a study site includes stays
// small. The core travels deflated by zopfli (napkin.wasm.deflate, inflated by
// DecompressionStream): 10 KB less than a server's gzip of the plain module, whatever the host's
// server does. The Makefile prepends napkin-glue.js (loader + glue) to the elements' code.
function embedWasm() {
  return {
    name: 'napkin-embed-wasm',
    async generateBundle() {
      const { script, deflate, deferred } = await servedWasm(fs.readFileSync(WASM_JS, 'utf8'));
      this.emitFile({ type: 'asset', fileName: 'napkin-glue.js', source: script });
      this.emitFile({ type: 'asset', fileName: 'napkin.wasm.deflate', source: deflate });
      this.emitFile({ type: 'asset', fileName: 'napkin-deferred.wasm', source: deferred });
    },
  };
}

const LAZY = {
  problems: { file: 'problems.json', make: problemBundle },
  docs: { file: 'docs.json', make: renderedDocs },
  'wasm-deferred': { file: 'napkin-deferred.wasm', make: async () => (await splitParts(fs.readFileSync(WASM_JS, 'utf8'))).deferred },
};

export default defineConfig(({ mode }) => {
  if (mode === 'embed')
    // The embed script: custom elements in one classic script; the Makefile prepends the glue.
    return {
      plugins: [embedWasm()],
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
    plugins: single
      ? [napkinWasm(true), lazyData(true, LAZY), viteSingleFile()]
      : [napkinWasm(false), lazyData(false, LAZY)],
    build: {
      outDir: single ? 'build/single' : 'dist',
      emptyOutDir: true,
      target: 'es2020',
      // terser packs the page's libraries a few KB tighter than esbuild: the single file has a budget.
      minify: 'terser',
      terserOptions: { compress: { passes: 2 } },
      assetsInlineLimit: single ? 100000000 : 4096,
      // The single file holds the main page only; embed.html is for iframes from a server.
      rollupOptions: {
        input: single ? path.resolve('index.html') : { index: path.resolve('index.html'), embed: path.resolve('embed.html') },
      },
    },
  };
});
