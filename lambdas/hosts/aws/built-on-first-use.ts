// host -> what a deployed function builds once per instance (its services, the gate's ports): on the first
// event, not at load, and again on the next event when building failed.
/**
 * `build`'s result, built on first use and kept for the instance's life; a failed build is forgotten,
 * so that the next use tries again.
 */
export const builtOnFirstUse = <T>(build: () => Promise<T>): (() => Promise<T>) => {
  let built: Promise<T> | undefined;
  return () => {
    built ??= build().catch((error: unknown) => {
      built = undefined;
      throw error;
    });
    return built;
  };
};
