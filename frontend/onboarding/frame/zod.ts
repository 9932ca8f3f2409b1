// frontend/onboarding/frame -> the part of zod the answers schema (lambdas/core/onboarding-answers.ts)
// uses, which the build puts in the form's bundle in place of `zod` itself: `z` from zod's package
// brings every locale and the JSON Schema tools along (480 KB minified instead of about 115 KB). A
// member the schema starts using and this list lacks fails at once, by name, so a browser test sees it.
// zod runs "jitless": its compiler probes `new Function`, which the frame's CSP refuses (and reports).
import { array, boolean, config, email, enum as enumOf, literal, strictObject, string } from 'zod/v4';

config({ jitless: true });

const members: Record<string, unknown> = {
  array,
  boolean,
  email,
  enum: enumOf,
  literal,
  strictObject,
  string,
};

export const z = new Proxy(members, {
  get: (target, name) => {
    if (typeof name === 'string' && !(name in target))
      throw new Error(
        `z.${name} is not in the form's part of zod: add it to frontend/onboarding/frame/zod.ts`,
      );
    return target[name as string];
  },
});
