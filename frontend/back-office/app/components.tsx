// frontend/back-office -> the back office's own parts (the kit has the rest: frontend/app-kit/components.tsx):
// the environment a page concerns, in words, with the way to the same section in the other one; and what
// a page says to a person whose roles do not allow it (the API answers them 403 the same way).
import { Title } from '../../app-kit/components';
import { Link } from '../../app-kit/navigation';
import { type Section, sectionPath } from './router';
import { ENVIRONMENT_NAMES, ENVIRONMENTS, type EnvironmentJson } from './types';

export const EnvironmentBar = ({
  environment,
  section,
}: {
  environment: EnvironmentJson;
  section: Section;
}) => {
  const other = ENVIRONMENTS.find((candidate) => candidate !== environment) ?? 'sandbox';
  return (
    <p class={`environment environment-${environment}`} data-testid="environment">
      <span>
        Environment: <strong>{ENVIRONMENT_NAMES[environment]}</strong>
        {environment === 'sandbox' ? ' (integrators’ test data)' : ' (live data: real buyers and clients)'}
      </span>{' '}
      <Link href={sectionPath(section, other)}>Switch to {ENVIRONMENT_NAMES[other].toLowerCase()}</Link>
    </p>
  );
};

export const ForbiddenPage = ({ section }: { section: Section }) => (
  <>
    <Title>{section.label}</Title>
    <p role="alert" class="notice notice-error">
      403: your roles do not allow this page. Ask an admin for the role it needs if your work calls for it.
    </p>
  </>
);

/** A page bo-operations fills in: its title and a line saying what it will hold. */
export const Placeholder = ({ title, children }: { title: string; children: string }) => (
  <>
    <Title>{title}</Title>
    <p>{children}</p>
  </>
);
