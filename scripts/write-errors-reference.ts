/**
 * `npm run docs:errors`: writes docs/errors.md, every error code by status, from the error catalog
 * and the route manifest (lib/errors-reference.ts).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorsReference } from '../lib/errors-reference.ts';

const target = resolve(import.meta.dirname, '../docs/errors.md');
writeFileSync(target, errorsReference());
console.log(`Wrote ${target}`);
