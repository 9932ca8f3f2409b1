// frontend/back-office -> the back office's addresses (decisions.md §11) and the page each shows. The
// environment is part of every address that concerns one (`/sandbox/…`, `/production/…`), so a link or
// a bookmark always says which; `/staff` concerns none. Each section names the action its page needs
// (the core's role table decides who may; the session lists what this person may).
import { ENVIRONMENTS, type EnvironmentJson, type StaffActionJson } from './types';

export type SectionName = 'reviews' | 'sign-ups' | 'contracts' | 'organisations' | 'audit-log' | 'staff';

export interface Section {
  name: SectionName;
  /** The navigation link's words (decisions.md §11). */
  label: string;
  /** What a person must be allowed to see it. */
  action: StaffActionJson;
  /** Whether its addresses name an environment. */
  perEnvironment: boolean;
}

/** The sections in the navigation's order; `/` leads to the first one a person may use. */
export const SECTIONS: readonly Section[] = [
  { name: 'reviews', label: 'Reviews', action: 'review.read', perEnvironment: true },
  { name: 'sign-ups', label: 'Sign-ups', action: 'signup.read', perEnvironment: true },
  { name: 'contracts', label: 'Contracts', action: 'contract.read', perEnvironment: true },
  { name: 'organisations', label: 'Organisations', action: 'organisation.read', perEnvironment: true },
  { name: 'audit-log', label: 'Audit log', action: 'audit.read', perEnvironment: true },
  { name: 'staff', label: 'Staff', action: 'staff.read', perEnvironment: false },
];

export type Route =
  | { page: 'home' }
  | { page: 'reviews'; environment: EnvironmentJson }
  | { page: 'review'; environment: EnvironmentJson; id: string }
  | { page: 'sign-ups'; environment: EnvironmentJson }
  | { page: 'sign-up'; environment: EnvironmentJson; id: string }
  | { page: 'contracts'; environment: EnvironmentJson }
  | { page: 'contract'; environment: EnvironmentJson; id: string }
  | { page: 'organisations'; environment: EnvironmentJson }
  | { page: 'audit-log'; environment: EnvironmentJson }
  | { page: 'staff' }
  | { page: 'not-found' };

/** The section a page belongs to (its navigation link, and the action it needs). */
export const sectionOf = (route: Route): Section | null => {
  const name: SectionName | null =
    route.page === 'review'
      ? 'reviews'
      : route.page === 'sign-up'
        ? 'sign-ups'
        : route.page === 'contract'
          ? 'contracts'
          : route.page === 'home' || route.page === 'not-found'
            ? null
            : route.page;
  return SECTIONS.find((section) => section.name === name) ?? null;
};

const ID = '([A-Za-z0-9_-]{1,100})';
const ENV = `(${ENVIRONMENTS.join('|')})`;
const LISTS = '(reviews|sign-ups|contracts|organisations|audit-log)';
const DETAIL: Readonly<Record<string, 'review' | 'sign-up' | 'contract'>> = {
  reviews: 'review',
  'sign-ups': 'sign-up',
  contracts: 'contract',
};

export const routeOf = (path: string): Route => {
  if (path === '/' || path === '') return { page: 'home' };
  if (path === '/staff') return { page: 'staff' };
  const matched = new RegExp(`^/${ENV}/${LISTS}(?:/${ID})?/?$`).exec(path);
  if (!matched) return { page: 'not-found' };
  const [, environment, list, id] = matched as unknown as [
    string,
    EnvironmentJson,
    string,
    string | undefined,
  ];
  if (id === undefined) return { page: list, environment } as Route;
  const detail = DETAIL[list];
  return detail ? { page: detail, environment, id } : { page: 'not-found' };
};

/** A section's address in `environment` (the environment is ignored by a section without one). */
export const sectionPath = (section: Section, environment: EnvironmentJson): string =>
  section.perEnvironment ? `/${environment}/${section.name}` : `/${section.name}`;

export const reviewPath = (environment: EnvironmentJson, id: string): string =>
  `/${environment}/reviews/${id}`;

/** Where `/` leads a person allowed `actions`: the first section they may use (production's), or nothing. */
export const homePath = (actions: readonly StaffActionJson[]): string | null => {
  const first = SECTIONS.find((section) => actions.includes(section.action));
  return first ? sectionPath(first, 'production') : null;
};
