/**
 * A CDK app of one house function, bundled for real, as cdk/app.ts builds the stack: run by
 * test/cdk/quiet-bundling.test.ts in a process of its own, whose stderr is what a person sees.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { HouseFunction } from '../../cdk/constructs/api-function.ts';
import { withQuietBundling } from '../../cdk/quiet-bundling.ts';

const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'quiet-bundling-')) });
withQuietBundling(() => {
  const stack = new Stack(app, 'QuietBundling');
  new HouseFunction(stack, 'ApiIndex', { entry: 'functions/system/get-api-index.ts' });
});
app.synth();
