// `make dist` step: writes the CSP <meta> into every HTML file given (see web/csp.mjs).
// Usage: node web/add-csp.mjs dist/index.html dist/embed.html dist/napkin.html …
import fs from 'node:fs';
import { withCspMeta } from './csp.mjs';

for (const file of process.argv.slice(2)) fs.writeFileSync(file, withCspMeta(fs.readFileSync(file, 'utf8')));
