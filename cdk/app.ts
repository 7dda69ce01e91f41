/** CDK entry point: `npx cdk synth` / `npx cdk deploy` (offline synth needs no AWS account). */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { deploymentSettings } from './context.ts';
import { PortalApiStack } from './portal-api-stack.ts';
import { withQuietBundling } from './quiet-bundling.ts';

const app = new App();
// Every -c setting, with its default, is listed in cdk/context.ts (and on docs/deploying.md).
const { stackName, ...settings } = deploymentSettings(app.node);
withQuietBundling(
  () =>
    new PortalApiStack(app, stackName, {
      ...settings,
      env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    }),
  // `cdk synth` bundles each function before it prints anything (minutes on a small machine): it says so.
  { announce: `Synthesizing ${stackName}: bundling each function with esbuild (a minute or two; the count follows)…` },
);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
