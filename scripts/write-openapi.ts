/**
 * `npm run openapi [file] [--compact]`: writes the OpenAPI 3.1 document built from the route
 * manifest to openapi.json (or `file`). `--compact`: one line, as GET /openapi.json serves it (CDK
 * writes it so beside that function's bundle).
 */
import { writeFileSync } from 'node:fs';
import { apiDocument } from '../lib/api-document.ts';

const compact = process.argv.includes('--compact');
const target = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'openapi.json';
writeFileSync(target, compact ? JSON.stringify(apiDocument()) : `${JSON.stringify(apiDocument(), null, 2)}\n`);
console.log(`Wrote ${target}`);
