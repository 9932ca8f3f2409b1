// host -> the withdrawal backfill, run once by each deployment that creates or changes it (a CDK trigger,
// lib/hosted-pages.ts): fills the pages' store of withdrawn slugs from the bucket's markers, so a store
// made afresh with the stateless stack forgets no withdrawal.
import { GateConfig, sdkPorts } from '../../../adapters/cloudfront/withdrawal-gate-ports';
import { log } from '../../../core/log';
import { backfillWithdrawals } from '../../../workers/withdrawal-gate';

export const handler = async (): Promise<{ withdrawn: number }> => {
  const { withdrawn } = await backfillWithdrawals(await sdkPorts(GateConfig.parse(process.env)));
  log.info('withdrawn slugs backfilled', { withdrawn: withdrawn.length });
  return { withdrawn: withdrawn.length };
};
