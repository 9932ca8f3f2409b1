// frontend/portal -> the portal's own parts (the kit has the rest: frontend/app-kit/components.tsx): the
// environment of an integration's page in words, a secret shown once with its copy button, and an HTTP
// status as a pill.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Pill } from '../../app-kit/components';
import { Link } from '../../app-kit/navigation';
import { integrationPath } from './router';
import { ENVIRONMENT_NAMES, ENVIRONMENTS, type EnvironmentJson } from './types';

/** Which environment this page concerns, in words, and the way to the same page in the other one. */
export const EnvironmentBar = ({
  environment,
  integrationId,
  section = '',
}: {
  environment: EnvironmentJson;
  integrationId: string;
  section?: string;
}) => {
  const other = ENVIRONMENTS.find((candidate) => candidate !== environment) ?? 'sandbox';
  return (
    <p class={`environment environment-${environment}`}>
      <span>
        Environment: <strong>{ENVIRONMENT_NAMES[environment]}</strong>
        {environment === 'sandbox' ? ' (test data; nothing is sent to real buyers)' : ' (live data)'}
      </span>{' '}
      <Link href={integrationPath(other, integrationId, section)}>
        Switch to {ENVIRONMENT_NAMES[other].toLowerCase()}
      </Link>
    </p>
  );
};

/** A secret, this once: the text to select, a copy button, and the warning that it will not be shown again. */
export const SecretOnce = ({
  label,
  secret,
  onDone,
  children,
}: {
  label: string;
  secret: string;
  onDone: () => void;
  /** How to use it, shown with it (and gone with it). */
  children?: ComponentChildren;
}) => {
  const [copied, setCopied] = useState(false);
  return (
    <section class="secret" aria-labelledby="secret-heading">
      <h2 id="secret-heading">{label}</h2>
      <p>Copy it now: it is shown this once, and the portal cannot show it again.</p>
      <p>
        <code class="secret-value" data-testid="secret">
          {secret}
        </code>
      </p>
      {children}
      <p class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have copied it
        </button>
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </p>
    </section>
  );
};

/** How an HTTP status reads at a glance: a pill, green for 2xx, amber for 4xx, red for 5xx. */
export const StatusPill = ({ status }: { status: number | null }) => {
  const tone =
    status === null || status >= 500
      ? 'bad'
      : status >= 400
        ? 'warn'
        : status >= 200 && status < 300
          ? 'ok'
          : 'warn';
  return <Pill tone={tone}>{status === null ? 'No answer' : status}</Pill>;
};
