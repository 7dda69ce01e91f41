/** `npm run docs [file]`: renders the API reference page to docs/api-reference.html (or `file`). */
import { resolve } from 'node:path';
import { renderApiReference } from '../lib/admin/api-reference.ts';

const target = resolve(process.argv[2] ?? 'docs/api-reference.html');
await renderApiReference(target);
console.log(`Wrote ${target}`);
