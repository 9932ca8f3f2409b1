// frontend/portal -> one integration in one environment: where its calls go (the base address) and where
// the sign-up form lives (the frame address), and the ways to its keys, webhooks and request history.
import { get } from '../../../app-kit/api';
import { Loading, Notice, Title, useLoaded } from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { EnvironmentBar } from '../components';
import { integrationPath } from '../router';
import { ENVIRONMENT_NAMES, type EnvironmentJson, type IntegrationAddressesJson } from '../types';

export const IntegrationPage = ({
  environment,
  integrationId,
}: {
  environment: EnvironmentJson;
  integrationId: string;
}) => {
  const { value, error } = useLoaded(
    () => get<IntegrationAddressesJson>(`/api/${environment}/integrations/${integrationId}`),
    `${environment}/${integrationId}`,
  );
  return (
    <>
      <Title>{value ? `${value.integration.name} — ${ENVIRONMENT_NAMES[environment]}` : 'Integration'}</Title>
      <EnvironmentBar environment={environment} integrationId={integrationId} />
      <Notice error={error} />
      {value === null ? (
        !error && <Loading what="the integration" />
      ) : (
        <>
          <dl class="addresses">
            <dt>Base address</dt>
            <dd>
              <code data-testid="base-url">{value.base_url}</code>
            </dd>
            <dt>Frame address</dt>
            <dd>
              <code data-testid="frame-url">{value.frame_url}</code>
            </dd>
          </dl>
          <p>
            Exchange an API key for a 15-minute access token with <code>POST {value.base_url}/v1/token</code>.
          </p>
          <ul class="sections">
            <li>
              <Link href={integrationPath(environment, integrationId, 'api-keys')}>API keys</Link>
            </li>
            <li>
              <Link href={integrationPath(environment, integrationId, 'webhook-endpoints')}>
                Webhook endpoints
              </Link>
            </li>
            <li>
              <Link href={integrationPath(environment, integrationId, 'requests')}>Request history</Link>
            </li>
          </ul>
        </>
      )}
    </>
  );
};
