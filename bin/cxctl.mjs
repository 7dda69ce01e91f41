#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx cxctl` needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/cxctl.ts');
