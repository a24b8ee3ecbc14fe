// The Content-Security-Policy every page of dist/ runs under, in one place: web/serve.mjs
// sends it as a header, and `make dist` writes it into each HTML file as a <meta> (with the
// hashes of that file's inline scripts), so a copy of dist/ on any static host, or the single
// file opened from disk, is as locked down as the served page.
import crypto from 'node:crypto';

export const DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'worker-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  'frame-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

export function policy(extraScripts = []) {
  return Object.entries(DIRECTIVES)
    .map(([k, v]) => [k, ...(k === 'script-src' ? [...v, ...extraScripts] : v)].join(' '))
    .join('; ');
}

// The header: no inline scripts are allowed (dist/index.html and embed.html have none).
export const CSP = policy();

// Inline <script> bodies of an HTML file, hashed the way CSP expects ('sha256-<base64>').
export function inlineScriptHashes(html) {
  const hashes = [];
  const re = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
  for (let m; (m = re.exec(html)); ) {
    if (/\bsrc\s*=/.test(m[1]) || !m[2]) continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

// Adds (or replaces) the CSP <meta> as the first element of <head>.
export function withCspMeta(html) {
  const stripped = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/i, '');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(inlineScriptHashes(stripped))}">`;
  return stripped.replace(/<head>/i, `<head>\n  ${meta}`);
}
