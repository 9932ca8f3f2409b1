// core -> the id of one request, answered as `Service-Request-Id` on every response of the API's
// addresses (interface.md) and recorded in its history: `rqs_` and 16 random characters.
import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const ID_BYTES = 16;
// One CSPRNG call per 256 ids rather than one per answer: on a cached GET the call cost more than the
// rest of the answer. A request id names a request in logs; it is not a secret.
const pool = Buffer.alloc(ID_BYTES * 256);
let taken = pool.length;

export const newRequestId = (): string => {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  let id = 'rqs_';
  for (let i = taken; i < taken + ID_BYTES; i++) id += ALPHABET[(pool[i] as number) % ALPHABET.length];
  taken += ID_BYTES;
  return id;
};
