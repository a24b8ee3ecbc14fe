// DOM building with text only: no HTML strings, so no URL or user text ever becomes markup.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Runs fn at most once per animation frame with the latest arguments.
export function perFrame(fn) {
  let pending = null;
  return (...args) => {
    const first = pending === null;
    pending = args;
    if (first)
      requestAnimationFrame(() => {
        const a = pending;
        pending = null;
        fn(...a);
      });
  };
}
