// frontend/back-office -> the Sign-ups page (decisions.md §11): a placeholder until it is built.
import { Placeholder } from '../components';
import type { Environment } from '../types';

export const SignUpsPage = (_: { environment: Environment; id?: string }) => (
  <Placeholder title="Sign-ups">Production sign-ups waiting to be accepted will be listed here.</Placeholder>
);
