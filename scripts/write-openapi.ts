/** `npm run openapi`: writes the OpenAPI 3.1 document built from the route manifest to openapi.json. */
import { writeFileSync } from 'node:fs';
import { apiDocument } from '../lib/api-document.ts';

const target = process.argv[2] ?? 'openapi.json';
writeFileSync(target, `${JSON.stringify(apiDocument(), null, 2)}\n`);
console.log(`Wrote ${target}`);
