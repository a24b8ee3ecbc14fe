// The JS API of SPEC §3 over the Embind functions: plain objects in, plain objects out.
// Appended to the module (--post-js), so `Module` is the instance createNapkin resolves to.
// Embind registers the underscore functions at start-up, so each wrapper looks them up late.
(function (M) {
  // Results arrive as UTF-8 bytes in wasm memory (see bindings.cpp), valid until the next call.
  var decoder = new TextDecoder();
  var json = function (bytes) { return JSON.parse(decoder.decode(bytes)); };
  var str = function (v) { return typeof v === 'string' ? v : String(v); };
  // NaN and ±Infinity would become null (= "not given"); send them as text so the core
  // rejects them by name.
  var keep = function (k, x) { return typeof x === 'number' && !isFinite(x) ? String(x) : x; };
  var enc = function (v) {
    if (v === undefined || v === null) return '{}';
    // A replacer costs a call per key: only use it when there is something to replace.
    for (var k in v) {
      var x = v[k];
      if (typeof x === 'number' && !isFinite(x)) return JSON.stringify(v, keep);
    }
    return JSON.stringify(v);
  };
  var listCache = null;
  M.list = function () {
    if (!listCache) listCache = json(M._list());
    return JSON.parse(JSON.stringify(listCache));
  };
  M.hardware = function () { return json(M._hardware()); };
  M.run = function (id, inputs) { return json(M._run(str(id), enc(inputs))); };
  // Columns come back through wasm memory (see bindings.cpp); failed points are null.
  M.sweep = function (id, inputs, param, values) {
    var xs = Float64Array.from(values || [], Number);
    var head = json(M._sweep(str(id), enc(inputs), str(param), xs));
    if (head.error) return head;
    var data = M._sweep_data().slice();
    var n = head.n;
    var column = function (k) {
      var out = new Array(n);
      for (var i = 0; i < n; i++) {
        var v = data[k * n + i];
        out[i] = v === v ? v : null;
      }
      return out;
    };
    var result = { x: column(0), outputs: {}, errors: new Array(n).fill(null) };
    head.columns.forEach(function (name, c) { result.outputs[name] = column(c + 1); });
    Object.keys(head.errors).forEach(function (i) { result.errors[+i] = head.errors[i]; });
    return result;
  };
  M.format = function (value, unit, opts) {
    return M._format(Number(value), str(unit || ''), !!(opts && opts.binary), (opts && opts.digits) | 0);
  };
  M.parse = function (text, unit) { return json(M._parse(str(text), str(unit || ''))); };
  M.problems = function () { return json(M._problems()); };
  M.problem = function (id, seed) { return json(M._problem(str(id), Number(seed) | 0)); };
  M.check = function (id, seed, answer) { return json(M._check(str(id), Number(seed) | 0, str(answer))); };
})(Module);
