/**
 * The spec's two base addresses on the operator's own domain (spec part 1):
 *   - the shared edge `api.<domain>`, where `X-Service-Workspace-Host` selects the workspace;
 *   - the workspace hosts `<workspace>.<domain>`, one wildcard custom domain for all of them.
 * One ACM certificate for `*.<domain>` covers both (a wildcard matches exactly one label, and `api`
 * is one), validated through DNS in the operator's Route 53 zone unless they bring their own ARN.
 * API Gateway supports wildcard custom domain names for HTTP APIs with regional endpoints:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-custom-domain-names.html
 * The hosted zone must be authoritative for `<domain>` (the records are created in it).
 */
import { ApiMapping, DomainName, EndpointType, type HttpApi, type IStage, SecurityPolicy } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import { SHARED_EDGE_LABEL } from '../../lib/platform/http/workspace-host.ts';

export interface CustomDomainsProps {
  api: HttpApi;
  stage: IStage;
  /** The parent domain of every host, e.g. `portal.example.com`. */
  domainName: string;
  /** The Route 53 hosted zone of `domainName`. */
  hostedZoneId: string;
  /** An existing ACM certificate (same region as the API) covering `*.<domainName>`; issued here when absent. */
  certificateArn?: string;
}

export class CustomDomains extends Construct {
  readonly sharedEdge: DomainName;
  readonly workspaceHosts: DomainName;
  readonly certificate: ICertificate;

  constructor(scope: Construct, id: string, props: CustomDomainsProps) {
    super(scope, id);
    const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZoneId, zoneName: props.domainName });
    this.certificate = props.certificateArn
      ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
      : new Certificate(this, 'Certificate', {
          domainName: `*.${props.domainName}`,
          validation: CertificateValidation.fromDns(zone),
        });

    const domain = (name: string, host: string, recordName: string) => {
      const domainName = new DomainName(this, `${name}Domain`, {
        domainName: host,
        certificate: this.certificate,
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      // No mapping key: `/api/v1/...` reaches the API unchanged, so every route matches as on execute-api.
      new ApiMapping(this, `${name}Mapping`, { api: props.api, domainName, stage: props.stage });
      const target = RecordTarget.fromAlias(
        new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId),
      );
      new ARecord(this, `${name}AliasA`, { zone, recordName, target });
      new AaaaRecord(this, `${name}AliasAAAA`, { zone, recordName, target });
      return domainName;
    };
    this.sharedEdge = domain('SharedEdge', `${SHARED_EDGE_LABEL}.${props.domainName}`, SHARED_EDGE_LABEL);
    this.workspaceHosts = domain('WorkspaceHosts', `*.${props.domainName}`, '*');
  }
}
