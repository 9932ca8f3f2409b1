// infra -> CloudFront's origin for an HTTP API. With the stage's domains in a hosted zone, the API gets a
// custom domain of its own (`origin.<its distribution's name>`, a regional certificate, an alias record),
// CloudFront reaches it there, and the API's `execute-api` address is switched off: only CloudFront
// reaches the API. Without a hosted zone CloudFront uses the `execute-api` address, with the origin
// secret header where the API requires it (lib/origin-protection.ts).
import { Stack } from 'aws-cdk-lib';
import {
  ApiMapping,
  type CfnApi,
  DomainName,
  type HttpApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { type IOrigin, OriginProtocolPolicy, OriginSslPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import type { Construct } from 'constructs';
import type { StageDomains } from './environments';

/** The origin name of the API behind a distribution's domain. */
export const apiOriginName = (distributionDomain: string): string => `origin.${distributionDomain}`;

/** The origin of `api` (as above); ids under `scope` start with `id`. */
export function httpApiOrigin(
  scope: Construct,
  id: string,
  api: HttpApi,
  domains: StageDomains | undefined,
  which: 'api' | 'frame',
  /** Headers CloudFront adds when it reaches the `execute-api` address (lib/origin-protection.ts). */
  originHeaders?: Record<string, string>,
): IOrigin {
  const stack = Stack.of(scope);
  const tls = {
    protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    originSslProtocols: [OriginSslPolicy.TLS_V1_2],
  };
  const hostedZone = domains?.hostedZone;
  if (!domains || !hostedZone)
    return new HttpOrigin(`${api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      ...tls,
      ...(originHeaders && { customHeaders: originHeaders }),
    });
  const name = apiOriginName(domains[which]);
  const zone = HostedZone.fromHostedZoneAttributes(scope, `${id}Zone`, {
    hostedZoneId: hostedZone.id,
    zoneName: hostedZone.name,
  });
  const domainName = new DomainName(scope, `${id}Domain`, {
    domainName: name,
    certificate: new Certificate(scope, `${id}Certificate`, {
      domainName: name,
      validation: CertificateValidation.fromDns(zone),
    }),
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  new ApiMapping(scope, `${id}Mapping`, { api, domainName });
  new ARecord(scope, `${id}Record`, {
    zone,
    recordName: name,
    target: RecordTarget.fromAlias(
      new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId),
    ),
  });
  (api.node.defaultChild as CfnApi).disableExecuteApiEndpoint = true;
  return new HttpOrigin(name, tls);
}
