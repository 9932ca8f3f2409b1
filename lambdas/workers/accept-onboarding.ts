// workers -> the acceptance workflow's one task: accepts a sandbox sign-up once its submission is a
// minute old (lambdas/core/onboarding.ts acceptWhenDue).

import * as z from 'zod/mini';
import { ENVIRONMENTS } from '../core/model';
import { type AcceptanceStep, acceptWhenDue } from '../core/onboarding';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { worker } from './worker';

/** The input of the acceptance workflow's tasks: the run. */
export const AcceptanceRunInput = z.object({
  kind: z.literal('acceptance'),
  environment: z.enum(ENVIRONMENTS),
  onboardingId: z.string().check(z.regex(/^onb_[A-Za-z0-9]+$/)),
  submittedAt: z.int().check(z.positive()),
});

export const acceptOnboarding = worker(
  AcceptanceRunInput,
  (
    run,
    {
      ports,
      settings,
    }: Services<Pick<Ports, 'clients' | 'clock' | 'environment' | 'ids' | 'onboardings' | 'runs'>>,
  ): Promise<AcceptanceStep> => acceptWhenDue(ports, run, settings.delayScale),
);
