// The JS API (README, "Using it") over the module's Embind functions (bindings.cpp): plain objects
// in, plain objects out. Appended to the module (--post-js), so `Module` is the instance createNapkin
// resolves to. Embind defines Module.core* once the module has started, so each wrapper looks
// them up late.
//
// Errors are values here too: whatever a caller passes (BigInt, Symbol, functions, Proxies,
// circular objects, throwing getters, huge array-likes), a wrapper returns {error: {…}} and
// never throws.
(function (M) {
  // Replies arrive as a view of UTF-8 JSON in wasm memory (see bindings.cpp), valid until the
  // next call: decoded at once.
  var decoder = new TextDecoder();
  var json = function (view) { return JSON.parse(decoder.decode(view)); };
  var MAX_SWEEP = 100000, MAX_INPUTS = 200, MAX_TEXT = 100000, MAX_SEED = 2147483647;

  function Bad(input, message) { this.input = input; this.message = message; }
  var fail = function (input, message) { throw new Bad(input, message); };
  var guard = function (fn) {
    return function () {
      try {
        return fn.apply(null, arguments);
      } catch (e) {
        var bad = e instanceof Bad;
        return { error: { code: bad ? 'invalid_argument' : 'internal', input: bad ? e.input : null,
                          message: bad ? e.message : 'the call failed: ' + safeText(e) } };
      }
    };
  };
  function safeText(e) {
    try { return String(e && e.message !== undefined ? e.message : e).slice(0, 200); } catch (x) { return 'unknown error'; }
  }
  var text = function (v, what) {
    if (typeof v !== 'string') fail(what, what + ' must be a string, not ' + typeof v);
    if (v.length > MAX_TEXT) fail(what, what + ' is ' + v.length + ' characters long; at most ' + MAX_TEXT);
    return v;
  };
  var seedOf = function (s) {
    var n = typeof s === 'string' && /^\d{1,10}$/.test(s) ? Number(s) : s;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_SEED)
      fail('seed', 'seed must be a whole number from 0 to ' + MAX_SEED);
    return n;
  };
  // The inputs as JSON text: numbers (non-finite ones as text, so the core names them),
  // strings, booleans, null, and JSON lists/objects for text inputs such as pipeline stages.
  // Written member by member (no copy of the object: a run's largest JS cost was that copy).
  // Each value is read exactly once: a getter that answers a short string to a first read and
  // a 20,000-key object to a second must meet the same caps as any other value.
  var MAX_NAME = 200;
  var enc = function (v) {
    if (v === undefined || v === null) return '{}';
    if (typeof v !== 'object' || Array.isArray(v)) fail('inputs', 'inputs must be an object of name: value');
    var keys = Object.keys(v);
    if (keys.length > MAX_INPUTS) fail('inputs', 'at most ' + MAX_INPUTS + ' inputs');
    var out = '{';
    for (var i = 0; i < keys.length; i++) {
      var k = keys[i], x = v[k], t = typeof x, s;
      if (k.length > MAX_NAME) fail(k.slice(0, 64) + '…', 'an input name has at most ' + MAX_NAME + ' characters, not ' + k.length);
      if (t === 'number') s = isFinite(x) ? String(x) : JSON.stringify(String(x));
      else if (t === 'string') {
        if (x.length > MAX_TEXT) fail(k, k + ' is ' + x.length + ' characters long; at most ' + MAX_TEXT);
        s = JSON.stringify(x);
      } else if (t === 'boolean' || x === null) s = JSON.stringify(x);
      else if (t === 'object') {
        s = JSON.stringify(x);  // circular or throwing values land in guard()
        if (s === undefined || s.length > MAX_TEXT) fail(k, k + ' is not a JSON value of at most ' + MAX_TEXT + ' characters');
        s = JSON.stringify(s);
      } else fail(k, k + ': a ' + t + ' is not an input value (use a number, text or true/false)');
      out += (i ? ',' : '') + JSON.stringify(k) + ':' + s;
    }
    return out + '}';
  };

  // The registry never changes: keep its text, and give each caller its own parse of it (a
  // caller may change what it gets). One parse per call, no stringify of a copy.
  var listText = null;
  M.list = guard(function () {
    if (listText === null) listText = decoder.decode(M.coreList());
    return JSON.parse(listText);
  });
  M.hardware = guard(function () { return json(M.coreHardware()); });
  // Model presets with their published configs and derived counts (core/scenario/).
  M.models = guard(function () { return json(M.coreModels()).models; });
  M.run = guard(function (id, inputs) { return json(M.coreRun(text(id, 'id'), enc(inputs))); });
  // Columns come back through wasm memory (see bindings.cpp); failed points are null.
  M.sweep = guard(function (id, inputs, param, values) {
    if (!Array.isArray(values) && !ArrayBuffer.isView(values)) fail('values', 'values must be an array of numbers');
    if (values.length > MAX_SWEEP) fail('values', 'a sweep takes at most ' + MAX_SWEEP + ' values, not ' + values.length);
    var xs = new Float64Array(values.length);
    for (var i = 0; i < values.length; i++) {
      var x = values[i];
      if (typeof x !== 'number' || !isFinite(x)) fail('values', 'values[' + i + '] is not a finite number');
      xs[i] = x;
    }
    var ids = text(id, 'id'), body = enc(inputs), name = text(param, 'param');
    M.coreSweepValues(xs.length).set(xs);
    var head = json(M.coreSweep(ids, body, name));
    if (head.error) return head;
    var data = M.coreSweepData().slice();
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
  });
  // format returns text: '—' for anything that is not a finite number.
  M.format = function (value, unit, opts) {
    try {
      if (typeof value !== 'number' || !isFinite(value)) return '—';
      var binary = false, digits = 0;
      if (opts && typeof opts === 'object') { binary = opts.binary === true; digits = Number.isInteger(opts.digits) ? opts.digits : 0; }
      return M.coreFormat(value, typeof unit === 'string' ? unit.slice(0, MAX_TEXT) : '', binary, Math.max(0, Math.min(17, digits)));
    } catch (e) {
      return '—';
    }
  };
  M.parse = guard(function (t, unit) {
    return json(M.coreParse(text(t, 'text'), unit === undefined ? '' : text(unit, 'unit')));
  });
  // search(inputs, {onProgress, signal}) → a Promise that always resolves: the search JSON of
  // docs/training.md (search) or {error}. In a page that passed createNapkin a `searchWorker` (a function that
  // returns a Worker running this module, see web/search-worker.js) it runs there, so the page
  // never freezes, and aborting the signal ends the worker; elsewhere it runs in this thread.
  // onProgress({done, total}) follows every block of about `every` layouts.
  var cancelled = { error: { code: 'cancelled', input: null, message: 'the search was cancelled' } };
  var idle = null;
  var searchHere = guard(function (inputs, onProgress, signal) {
    // Called from the core's search loop between blocks of layouts; false cancels.
    var progress = function (done, total) {
      if (onProgress) try { onProgress({ done: done, total: total }); } catch (e) { /* the caller's own */ }
      return !(signal && signal.aborted);
    };
    var r = json(M.coreSearch(enc(inputs), 2e5, true, progress));
    return signal && signal.aborted ? cancelled : r;
  });
  M.search = function (inputs, opts) {
    return M.loadDeferred().then(function (loaded) { return loaded.error ? loaded : searchNow(inputs, opts); });
  };
  var searchNow = function (inputs, opts) {
    return new Promise(function (resolve) {
      var o = opts && typeof opts === 'object' ? opts : {};
      var onProgress = typeof o.onProgress === 'function' ? o.onProgress : null;
      var signal = o.signal && typeof o.signal.addEventListener === 'function' ? o.signal : null;
      if (signal && signal.aborted) return resolve(cancelled);
      var make = M.searchWorker;
      if (typeof make !== 'function') return resolve(searchHere(inputs, onProgress, signal));
      var w, body = guard(enc)(inputs);
      if (typeof body !== 'string') return resolve(body);
      try { w = idle || make(); } catch (e) { return resolve(searchHere(inputs, onProgress, signal)); }
      idle = null;
      var finish = function (r, keep) {
        if (signal) signal.removeEventListener('abort', abort);
        w.onmessage = w.onerror = null;
        if (keep && !idle) idle = w; else w.terminate();
        resolve(r);
      };
      var abort = function () { finish(cancelled, false); };
      if (signal) signal.addEventListener('abort', abort);
      w.onmessage = function (e) {
        var d = e.data || {};
        if (d.progress) { if (onProgress) try { onProgress(d.progress); } catch (x) { /* the caller's own */ } }
        else finish(d.result, true);
      };
      w.onerror = function (e) {
        if (e && e.preventDefault) e.preventDefault();
        finish({ error: { code: 'internal', input: null, message: 'the search worker failed: ' + safeText(e) } }, false);
      };
      // The worker runs the same split module: it gets the deferred part already compiled.
      w.postMessage({ inputs: body, deferred: M.deferredModule || null });
    });
  };
  // In the page and the embed the module is split (wasm/split.mjs): the code only practice and
  // the search use loads on first use. loadDeferred() → a Promise that always resolves: {ok:
  // true} once that code is in (at once where the module is whole, as in node), or {error}.
  // The problem methods below answer an error value until it has resolved.
  M.loadDeferred = function () {
    if (!M.needsDeferred) return Promise.resolve({ ok: true });
    return M.attachDeferred().then(function () { return { ok: true }; }, function (e) {
      return { error: { code: 'not_loaded', input: null, message: 'the practice and search code could not be loaded: ' + safeText(e) } };
    });
  };
  var deferred = function (fn) {
    return guard(function () {
      if (M.needsDeferred) return { error: { code: 'not_loaded', input: null, message: 'the practice code has not loaded yet: wait for napkin.loadDeferred() first' } };
      return fn.apply(null, arguments);
    });
  };
  // A problem file (docs/authoring.md), as JSON text or as the parsed object: its problems join
  // the bank. {loaded, ids, errors}: errors name the problem and the field; nothing throws. The
  // page and the embed load the built-in bank (problems.json) this way on first use.
  var MAX_PROBLEM_FILE = 4000000;
  M.loadProblems = deferred(function (file) {
    var t = typeof file === 'string' ? file : null;
    if (t === null && file && typeof file === 'object') {
      try { t = JSON.stringify(file); } catch (e) { fail('file', 'the problem file does not convert to JSON: ' + safeText(e)); }
    }
    if (typeof t !== 'string') fail('file', 'file must be a problem file: JSON text or an object, not ' + typeof file);
    if (t.length > MAX_PROBLEM_FILE) fail('file', 'the problem file is ' + t.length + ' characters long; at most ' + MAX_PROBLEM_FILE);
    return json(M.coreLoadProblems(t));
  });
  M.problems = deferred(function () { return json(M.coreProblems()); });
  M.problem = deferred(function (id, seed) {
    var s = seedOf(seed);
    return json(M.coreProblem(text(id, 'id'), s));
  });
  M.check = deferred(function (id, seed, answer) {
    var s = seedOf(seed);
    return json(M.coreCheck(text(id, 'id'), s, text(answer, 'answer')));
  });
})(Module);
