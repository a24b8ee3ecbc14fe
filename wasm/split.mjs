// Splits the wasm module in two for the page and the embed (docs/architecture.md, Budgets: the
// first screen carries only what the first results need): a primary module with everything the
// calculator's functions reach (list, run, sweep, format, parse, presets), and a deferred module
// with the functions that only the practice and search functions reach (the problem-file reader,
// the expression language, variants and grading, the layout search). The deferred one loads on
// first use of Practice, a <napkin-problem> or the Plan search (wasm/instantiate.js attaches it).
//
// Binaryen's wasm-split does the split; this file chooses the functions. JavaScript enters the
// module through Embind (wasm/bindings.cpp): each core function is called by its invoker, both
// through the function table. embindFunctions() learns their table slots by running the module's
// constructors, which register them. deferredFunctions() then reads the static call graph of the
// module's text (wasm-dis) and splits out exactly the functions reachable from the deferred core
// functions and from nothing else JavaScript can call (the other core functions, every invoker,
// the module's exports). An indirect call may reach every function in the table whose signature
// is the call's type (a call_indirect of any other signature traps, by the wasm spec's type check,
// so it cannot reach them): those count as reachable from the caller, except the deferred core
// functions themselves, whose address only Embind's registration takes. So no call the calculator
// makes can reach a function of the deferred module, by construction: it is needed only by the
// core functions listed here, which wasm/api.js awaits. Node's JS API (build/wasm/napkin.js) keeps
// the whole module: it is not split.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';

// The core functions (their Embind names, wasm/bindings.cpp) whose code may load later;
// wasm/api.js's practice and search methods wait for the deferred module before calling them.
export const DEFERRED = ['coreSearch', 'coreLoadProblems', 'coreProblems', 'coreProblem', 'coreCheck'];

// [{name, invoker, fn}]: each Embind function with the table slots of its invoker and of the
// function it calls, as the module's constructors register them through
// `_embind_register_function(name, argCount, argTypes, signature, invoker, fn)`. A static reading
// cannot see these (JavaScript calls them by slot), so the module is instantiated here with every
// import stubbed, its constructors run, and each registration recorded.
export function embindFunctions(bytes, glue) {
  const lib = /var asmLibraryArg=\{([^}]*)\}/.exec(glue);
  const ctors = /addOnInit\(Module\["asm"\]\["(\w+)"\]\)/.exec(glue);
  if (!lib || !ctors) throw new Error('wasm/split.mjs: the glue names no imports or no constructors (asmLibraryArg, addOnInit)');
  const jsName = new Map([...lib[1].matchAll(/"(\w+)":(\w+)/g)].map((m) => [m[1], m[2]]));
  const module = new WebAssembly.Module(bytes);
  const found = [];
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') throw new Error(`wasm/split.mjs: the module imports a ${imp.kind} (${imp.module}.${imp.name}); stub it here`);
    (imports[imp.module] ||= {})[imp.name] = jsName.get(imp.name) === '__embind_register_function'
      ? (name, argCount, argTypes, signature, invoker, fn) => { found.push({ name, invoker, fn }); }
      : () => 0;
  }
  const instance = new WebAssembly.Instance(module, imports);
  instance.exports[ctors[1]]();
  const memory = Object.values(instance.exports).find((x) => x instanceof WebAssembly.Memory);
  const bytesAt = new Uint8Array(memory.buffer);
  const text = (at) => Buffer.from(bytesAt.subarray(at, bytesAt.indexOf(0, at))).toString('latin1');
  const bound = found.map((f) => ({ ...f, name: text(f.name) }));
  const missing = DEFERRED.filter((n) => !bound.some((f) => f.name === n));
  if (missing.length) throw new Error(`wasm/split.mjs: the module registers no ${missing.join(', ')} (see wasm/bindings.cpp)`);
  return bound;
}

// A function's signature as wasm-dis names the type of a call_indirect: "$i32_i32_=>_i32" for
// (param i32) (param i32) (result i32), "$=>_none" for no params and no result.
function signature(header) {
  const params = [...header.matchAll(/\(param \$\S+ (\w+)\)/g)].map((m) => m[1]);
  const result = [...header.matchAll(/\(result ((?:\w+ ?)+)\)/g)].map((m) => m[1].trim().replace(/ /g, '_'));
  return '$' + params.map((p) => p + '_').join('') + '=>_' + (result.length ? result.join('_') : 'none');
}

// The functions only the deferred core functions reach, by their index names in wasm-dis's text
// ($123). `bound`: embindFunctions().
export function deferredFunctions(wat, bound) {
  const calls = new Map();  // function → functions it calls directly or takes the address of
  const indirect = new Map();  // function → the types of its calls through the table
  const sig = new Map();  // function → its signature, named as a call_indirect's type
  const table = new Set();  // functions in the table's element segments
  const slotOf = new Map();  // table slot → function
  const exported = [];  // functions the module exports (its constructors, malloc, free, …)
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
    if (line.startsWith(' (elem')) {
      // (elem (i32.const K) $a $b …): $a sits in slot K, $b in K + 1, …
      const at = /^ \(elem \(i32\.const (\d+)\)/.exec(line);
      if (!at) throw new Error('wasm/split.mjs: an element segment without a constant offset: ' + line.slice(0, 80));
      let slot = Number(at[1]);
      for (const m of line.slice(at[0].length).matchAll(/\$[^\s)]+/g)) { table.add(m[0]); slotOf.set(slot++, m[0]); }
      current = null;
      continue;
    }
    const e = /^ \(export "\w+" \(func (\$[^\s)]+)\)\)/.exec(line);
    if (e) { exported.push(e[1]); current = null; continue; }
    if (current === null || !line.startsWith('  ')) continue;
    for (const m of line.matchAll(/\((?:call|return_call|ref\.func) (\$[^\s)]+)/g)) calls.get(current).add(m[1]);
    for (const m of line.matchAll(/call_indirect (?:\$\S+ )?\(type (\$[^\s)]+)\)/g)) indirect.get(current).add(m[1]);
  }
  const at = (slot) => {
    const f = slotOf.get(slot);
    if (!f) throw new Error(`wasm/split.mjs: Embind registered table slot ${slot}, which no element segment fills`);
    return f;
  };
  const later = bound.filter((b) => DEFERRED.includes(b.name)).map((b) => at(b.fn));
  const deferredFns = new Set(later);
  // A call_indirect whose type no table function has would mean this reading of the text is
  // wrong (wasm-dis names types differently): then every table function counts.
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
        for (const t of table) if (!deferredFns.has(t) && (any || sig.get(t) === type)) stack.push(t);
      }
      stack.push(...(calls.get(f) || []));
    }
    return seen;
  };
  // What JavaScript can call before the deferred part is in: the exports, every invoker, and the
  // core functions that are not deferred.
  const first = reach([...exported, ...bound.map((b) => at(b.invoker)),
    ...bound.filter((b) => !DEFERRED.includes(b.name)).map((b) => at(b.fn))]);
  return [...reach(later)].filter((f) => calls.has(f) && !first.has(f));
}

// {primary, deferred}: the two modules' bytes. The result is cached under build/wasm/split by
// the input's hash, since the page, the single file and the embed each build from one module.
export function splitWasm(bytes, glue, cacheDir = path.resolve('build/wasm/split')) {
  // Keyed by this file too: a change in how the functions are chosen is a new split.
  const key = crypto.createHash('sha256').update(bytes).update(glue).update(fs.readFileSync(new URL(import.meta.url))).digest('hex').slice(0, 16);
  const cached = (n) => path.join(cacheDir, `${key}.${n}.wasm`);
  if (fs.existsSync(cached('primary')) && fs.existsSync(cached('deferred')))
    return { primary: fs.readFileSync(cached('primary')), deferred: fs.readFileSync(cached('deferred')) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'napkin-split-'));
  try {
    const input = path.join(dir, 'napkin.wasm');
    fs.writeFileSync(input, bytes);
    const wat = execFileSync('wasm-dis', [input], { maxBuffer: 1 << 28, encoding: 'utf8' });
    const funcs = deferredFunctions(wat, embindFunctions(bytes, glue));
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
