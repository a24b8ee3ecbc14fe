// Splits the wasm module in two for the page and the embed (docs/architecture.md, Budgets: the first screen carries
// only what the first results need): a primary module with everything the calculator's exports
// reach (list, run, sweep, format, parse, presets), and a deferred module with the functions
// that only the practice and search exports reach (the problem-file reader, the expression
// language, variants and grading, the layout search). The deferred one loads on first use of
// Practice, a <napkin-problem> or the Plan search (wasm/instantiate.js attaches it).
//
// Binaryen's wasm-split does the split; this file chooses the functions. It reads the static call
// graph of the module's text (wasm-dis) and splits out exactly the functions reachable from the
// deferred exports and not from any other export. An indirect call may reach every function in
// the table whose signature is the call's type (a call_indirect of any other signature traps, by
// the wasm spec's type check, so it cannot reach them): those count as reachable from the caller.
// So no call the calculator makes can reach a function of the deferred module, by construction: the deferred module is needed only by the
// exports listed here, which wasm/api.js awaits. Node's JS API (build/wasm/napkin.js) keeps the
// whole module: it is not split.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';

// The C exports (wasm/bindings.cpp) whose code may load later; wasm/api.js's practice and
// search methods wait for the deferred module before calling them.
export const DEFERRED_EXPORTS = ['napkin_search', 'napkin_load_problems', 'napkin_problems', 'napkin_problem', 'napkin_check'];

// Emscripten's glue names each C export's minified wasm export: Module["_napkin_run"]=Module["asm"]["s"].
function exportNames(glue) {
  const byWasmName = new Map();
  for (const m of glue.matchAll(/Module\["_(\w+)"\]=Module\["asm"\]\["(\w+)"\]/g)) byWasmName.set(m[2], m[1]);
  return byWasmName;
}

// A function's signature as wasm-dis names the type of a call_indirect: "$i32_i32_=>_i32" for
// (param i32) (param i32) (result i32), "$=>_none" for no params and no result.
function signature(header) {
  const params = [...header.matchAll(/\(param \$\S+ (\w+)\)/g)].map((m) => m[1]);
  const result = [...header.matchAll(/\(result ((?:\w+ ?)+)\)/g)].map((m) => m[1].trim().replace(/ /g, '_'));
  return '$' + params.map((p) => p + '_').join('') + '=>_' + (result.length ? result.join('_') : 'none');
}

// The functions only the deferred exports reach, by their index names in wasm-dis's text ($123).
export function deferredFunctions(wat, glue) {
  const names = exportNames(glue);
  const calls = new Map();  // function → functions it calls directly or takes the address of
  const indirect = new Map();  // function → the types of its calls through the table
  const sig = new Map();  // function → its signature, named as a call_indirect's type
  const table = new Set();  // functions in the table's element segments
  const exports = [];  // [function, its C export name (or the wasm export name)]: one function may have several
  let current = null;
  for (const line of wat.split('\n')) {
    const f = /^ \(func (\$[^\s)]+)(.*)$/.exec(line);
    if (f) {
      current = f[1];
      calls.set(current, new Set());
      indirect.set(current, new Set());
      sig.set(current, signature(f[2]));
      continue;
    }
    if (line.startsWith(' (elem')) { for (const m of line.matchAll(/\$[^\s)]+/g)) table.add(m[0]); current = null; continue; }
    const e = /^ \(export "(\w+)" \(func (\$[^\s)]+)\)\)/.exec(line);
    if (e) { exports.push([e[2], names.get(e[1]) || e[1]]); current = null; continue; }
    if (current === null || !line.startsWith('  ')) continue;
    for (const m of line.matchAll(/\((?:call|return_call|ref\.func) (\$[^\s)]+)/g)) calls.get(current).add(m[1]);
    for (const m of line.matchAll(/call_indirect (?:\$\S+ )?\(type (\$[^\s)]+)\)/g)) indirect.get(current).add(m[1]);
  }
  const missing = DEFERRED_EXPORTS.filter((n) => !exports.some(([, name]) => name === n));
  if (missing.length) throw new Error(`wasm/split.mjs: the module does not export ${missing.join(', ')} (see wasm/bindings.cpp)`);
  // A call_indirect whose type no table function has would mean this reading of the text is
  // wrong (wasm-dis names types differently): then every table function counts, as before.
  const tableSigs = new Set([...table].map((f) => sig.get(f)));
  const reach = (roots) => {
    const seen = new Set(), stack = [...roots], widened = new Set();
    while (stack.length) {
      const f = stack.pop();
      if (seen.has(f)) continue;
      seen.add(f);
      for (const type of indirect.get(f) || []) {
        if (widened.has(type)) continue;
        widened.add(type);
        const any = !tableSigs.has(type);
        for (const t of table) if (any || sig.get(t) === type) stack.push(t);
      }
      stack.push(...(calls.get(f) || []));
    }
    return seen;
  };
  const first = reach(exports.filter(([, n]) => !DEFERRED_EXPORTS.includes(n)).map(([f]) => f));
  const later = reach(exports.filter(([, n]) => DEFERRED_EXPORTS.includes(n)).map(([f]) => f));
  return [...later].filter((f) => calls.has(f) && !first.has(f));
}

// {primary, deferred}: the two modules' bytes. The result is cached under build/wasm/split by
// the input's hash, since the page, the single file and the embed each build from one module.
export function splitWasm(bytes, glue, cacheDir = path.resolve('build/wasm/split')) {
  const key = crypto.createHash('sha256').update(bytes).update(glue).digest('hex').slice(0, 16);
  const cached = (n) => path.join(cacheDir, `${key}.${n}.wasm`);
  if (fs.existsSync(cached('primary')) && fs.existsSync(cached('deferred')))
    return { primary: fs.readFileSync(cached('primary')), deferred: fs.readFileSync(cached('deferred')) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'napkin-split-'));
  try {
    const input = path.join(dir, 'napkin.wasm');
    fs.writeFileSync(input, bytes);
    const wat = execFileSync('wasm-dis', [input], { maxBuffer: 1 << 28, encoding: 'utf8' });
    const funcs = deferredFunctions(wat, glue);
    if (!funcs.length) throw new Error('wasm/split.mjs: no function is reached only by the practice and search exports');
    const list = path.join(dir, 'deferred.txt');
    // One name per line (a comma-separated list on the command line would be cut at the commas
    // of C++ names, and is long).
    fs.writeFileSync(list, funcs.map((f) => f.slice(1)).join('\n') + '\n');
    const out = (n) => path.join(dir, n + '.wasm');
    const r = spawnSync('wasm-split', [input, '--split-funcs=@' + list, '-o1', out('primary'), '-o2', out('deferred'), '-all'], { encoding: 'utf8' });
    const log = (r.error ? r.error.message : '') + r.stderr + r.stdout;
    if (r.status !== 0 || /warning|error/i.test(log)) throw new Error('wasm/split.mjs: wasm-split failed: ' + log.trim().split('\n')[0]);
    fs.mkdirSync(cacheDir, { recursive: true });
    for (const n of ['primary', 'deferred']) fs.copyFileSync(out(n), cached(n));
    return { primary: fs.readFileSync(cached('primary')), deferred: fs.readFileSync(cached('deferred')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
