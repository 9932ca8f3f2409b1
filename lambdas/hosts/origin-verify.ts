// host -> the ingest service's check of the origin secret header: a request is CloudFront's when its header
// is one of the secret's accepted values (current, pending or previous: core/origin-secret-ports.ts), read
// again every few minutes and on a header that matches none, so a rotation never leaves a task refusing
// CloudFront (bin/ingest.ts).
import { timingSafeEqual } from 'node:crypto';
import { log } from '../core/log';

/** How long the values read are trusted before they are read again. */
export const ORIGIN_VALUES_MAX_AGE_MS = 5 * 60_000;
/** The least time between two reads: a stream of wrong headers must not become a stream of reads. */
export const ORIGIN_VALUES_MIN_GAP_MS = 10_000;

export interface OriginVerifierOptions {
  /** The accepted values, as Secrets Manager has them now. */
  read(): Promise<string[]>;
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

export interface OriginVerifier {
  /** Reads the values the first time: throws if they cannot be read (the task must not start). */
  start(): Promise<void>;
  /** Whether `header` (the request's header, as Node gives it) is one of the accepted values. */
  accepts(header: string | string[] | undefined): Promise<boolean>;
}

export const originVerifier = ({ read, now }: OriginVerifierOptions): OriginVerifier => {
  let accepted: Buffer[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;

  const refresh = (): Promise<void> => {
    reading ??= (async () => {
      // A failed read counts as a read for the gap: the values already held are kept.
      readAt = now();
      const values = await read();
      if (values.length === 0) throw new Error('the origin secret has no value');
      accepted = values.map((value) => Buffer.from(value));
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  };

  const matches = (given: Buffer): boolean =>
    given.length > 0 &&
    accepted.some((value) => value.length === given.length && timingSafeEqual(value, given));

  return {
    start: refresh,
    accepts: async (header) => {
      const given = Buffer.from(typeof header === 'string' ? header : '');
      const age = now() - readAt;
      if (age >= ORIGIN_VALUES_MAX_AGE_MS || (!matches(given) && age >= ORIGIN_VALUES_MIN_GAP_MS)) {
        await refresh().catch((error: unknown) =>
          log.warn('origin secret not read again; the values held are kept', { error }),
        );
      }
      return matches(given);
    },
  };
};
