/** CDK entry point: `npx cdk synth` / `npx cdk deploy` (offline synth needs no AWS account). */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PortalApiStack } from './portal-api-stack.ts';
import { withQuietBundling } from './quiet-bundling.ts';

const app = new App();
const context = (name: string): string | undefined => app.node.tryGetContext(name);
const domainName = context('domainName');
const hostedZoneId = context('hostedZoneId');
if (domainName && !hostedZoneId) throw new Error('-c domainName needs -c hostedZoneId (the Route 53 zone of that domain)');
withQuietBundling(
  () =>
    new PortalApiStack(app, context('stackName') ?? 'CxPortalApi', {
      // A custom domain is the workspace domain too: `<workspace>.<domainName>` is a workspace host.
      workspaceDomain: domainName ?? context('workspaceDomain') ?? 'portal.example.com',
      customDomain:
        domainName && hostedZoneId
          ? {
              domainName,
              hostedZoneId,
              certificateArn: context('certificateArn'),
              disableDefaultEndpoint: [true, 'true'].includes(app.node.tryGetContext('disableDefaultEndpoint')),
            }
          : undefined,
      alarmTopicArn: app.node.tryGetContext('alarmTopicArn'),
      webhookRetryDelays: app.node.tryGetContext('webhookRetryDelays'),
      linkCheckSchedule: app.node.tryGetContext('linkCheckSchedule'),
      env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    }),
);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
