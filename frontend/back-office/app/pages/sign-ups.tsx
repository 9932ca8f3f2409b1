// frontend/back-office -> the Sign-ups page and a sign-up's page (decisions.md §11): production sign-ups
// waiting to be accepted, oldest first, each with its organisation, reference and clients as submitted
// (names, emails, phones, addresses); a sign-up's page with `Accept`, confirmed by `Accept sign-up`, which
// runs what `ops accept-onboarding` runs. Sandbox sign-ups are accepted automatically: that page says so.
import { useState } from 'preact/hooks';
import { call, get } from '../../../app-kit/api';
import {
  ConfirmButton,
  EmptyState,
  errorText,
  Loading,
  Notice,
  Pill,
  TableRegion,
  TimeAgo,
  Title,
  useLoaded,
  useNow,
  when,
} from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { LoadMore, readPages } from '../load-more';
import type { EnvironmentJson, SignUpJson } from '../types';

type Client = SignUpJson['clients'][number];

const signUpPath = (environment: EnvironmentJson, id: string): string => `/${environment}/sign-ups/${id}`;

const nameOf = (client: Client): string => `${client.first_name} ${client.last_name}`;

const addressText = (address: Client['address']): string =>
  address === null
    ? 'No address kept with this submission'
    : [address.line1, address.line2, address.suburb, address.state, address.postcode, address.country]
        .filter((part) => part)
        .join(', ');

/** Each client on a line of their own: name, then how to reach them, as submitted. */
const ClientList = ({ clients }: { clients: readonly Client[] }) => (
  <ul class="clients">
    {clients.map((client) => (
      <li key={client.id}>
        <strong>{nameOf(client)}</strong>
        {client.primary && ' (primary)'}
        <br />
        {client.email}
        {client.mobile && <> · {client.mobile}</>}
        <br />
        <span class="hint">{addressText(client.address)}</span>
      </li>
    ))}
  </ul>
);

const SandboxSignUps = () => (
  <>
    <Title>Sign-ups</Title>
    <p>
      Sandbox sign-ups are accepted automatically: nothing waits here for a person. Production sign-ups wait
      for an operator to accept them; switch to production to see them.
    </p>
  </>
);

const SignUpList = ({ environment }: { environment: EnvironmentJson }) => {
  const [pages, setPages] = useState(1);
  const list = useLoaded(() => readPages<SignUpJson>(`/api/${environment}/sign-ups`, pages), environment);
  const now = useNow();
  return (
    <>
      <Title>Sign-ups</Title>
      <p class="hint">Production sign-ups waiting to be accepted, oldest first.</p>
      <Notice error={list.error} />
      {list.value === null ? (
        !list.error && <Loading what="the sign-ups waiting" />
      ) : list.value.rows.length === 0 ? (
        <EmptyState title="No sign-ups are waiting to be accepted.">
          <p>A sign-up appears here once a buyer submits the form in production.</p>
        </EmptyState>
      ) : (
        <>
          <TableRegion label="Sign-ups waiting">
            <table>
              <caption>
                {list.value.rows.length} sign-up{list.value.rows.length === 1 ? '' : 's'} waiting
                {list.value.hasMore ? ' shown (more below)' : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Sign-up</th>
                  <th scope="col">Waited</th>
                  <th scope="col">Organisation</th>
                  <th scope="col">Reference</th>
                  <th scope="col">Clients</th>
                </tr>
              </thead>
              <tbody>
                {list.value.rows.map((signUp) => (
                  <tr key={signUp.id}>
                    <th scope="row">
                      <Link href={signUpPath(environment, signUp.id)}>
                        <code>{signUp.id}</code>
                      </Link>
                    </th>
                    <td>{signUp.submitted_at ? <TimeAgo time={signUp.submitted_at} now={now} /> : '—'}</td>
                    <td>
                      <code>{signUp.organisation_id}</code>
                    </td>
                    <td>{signUp.reference}</td>
                    <td>
                      <ClientList clients={signUp.clients} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          {list.value.hasMore && (
            <LoadMore
              onClick={() => {
                setPages((count) => count + 1);
                list.reload();
              }}
            />
          )}
        </>
      )}
    </>
  );
};

const SignUpPage = ({ environment, id }: { environment: EnvironmentJson; id: string }) => {
  const path = `/api/${environment}/sign-ups/${id}`;
  const loaded = useLoaded(() => get<SignUpJson>(path), path);
  const [accepted, setAccepted] = useState<SignUpJson | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const signUp = accepted ?? loaded.value;
  return (
    <>
      <Title>{`Sign-up ${id}`}</Title>
      <p>
        <Link href={`/${environment}/sign-ups`}>Back to the sign-ups</Link>
      </p>
      <Notice error={error ?? loaded.error} status={status} />
      {signUp === null ? (
        !loaded.error && <Loading what="the sign-up" />
      ) : (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <Pill tone={signUp.state === 'accepted' ? 'ok' : 'warn'}>
                {signUp.state === 'submitted' ? 'Waiting to be accepted' : signUp.state}
              </Pill>
            </dd>
            <dt>Organisation</dt>
            <dd>
              <code>{signUp.organisation_id}</code>
            </dd>
            <dt>Integration</dt>
            <dd>
              <code>{signUp.integration_id}</code>
            </dd>
            <dt>Reference</dt>
            <dd>{signUp.reference}</dd>
            <dt>Submitted</dt>
            <dd>{when(signUp.submitted_at)}</dd>
          </dl>
          <h2>Clients</h2>
          <ClientList clients={signUp.clients} />
          {signUp.state === 'submitted' && (
            <ConfirmButton
              label="Accept"
              question={`Accept sign-up ${signUp.reference}?`}
              confirmLabel="Accept sign-up"
              tone="primary"
              onConfirm={async () => {
                setError(null);
                setStatus(null);
                try {
                  setAccepted(await call<SignUpJson>('POST', `${path}/accept`, {}));
                  setStatus('Sign-up accepted: its clients are accepted and the integrator is told.');
                } catch (failed) {
                  setError(errorText(failed));
                }
              }}
            >
              <p>
                Its {signUp.clients.length} client{signUp.clients.length === 1 ? '' : 's'} become accepted and
                the integrator's webhooks are told. This cannot be undone.
              </p>
            </ConfirmButton>
          )}
        </>
      )}
    </>
  );
};

export const SignUpsPage = ({ environment, id }: { environment: EnvironmentJson; id?: string }) =>
  id !== undefined ? (
    <SignUpPage environment={environment} id={id} />
  ) : environment === 'sandbox' ? (
    <SandboxSignUps />
  ) : (
    <SignUpList environment={environment} />
  );
