/** CDK entry point: `npx cdk synth` / `npx cdk deploy` (offline synth needs no AWS account). */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PortalApiStack } from './portal-api-stack.ts';

const app = new App();
new PortalApiStack(app, app.node.tryGetContext('stackName') ?? 'CxPortalApi', {
  workspaceDomain: app.node.tryGetContext('workspaceDomain') ?? 'portal.example.com',
  alarmTopicArn: app.node.tryGetContext('alarmTopicArn'),
  webhookRetryDelays: app.node.tryGetContext('webhookRetryDelays'),
  linkCheckSchedule: app.node.tryGetContext('linkCheckSchedule'),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
