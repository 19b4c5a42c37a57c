import type { Logger } from "@platform/logger";

/**
 * A module (or what is built from it) loaded by the first call rather than at start (ADR 030, cold start):
 * every caller shares the one load in flight or done; a load that failed is forgotten, so the next call tries
 * again instead of keeping the error for the life of the process.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
    }
    return loading;
  };
}

/**
 * Runs the loaders of modules that load on first use (ADR 030), all at once, and logs each one that fails by
 * name: the features that need it will fail, and the operator should know before the first member does.
 * Never rejects. Answers the names that failed.
 */
export async function loadDeferredModules(
  loaders: Record<string, () => Promise<unknown>>,
  logger: Pick<Logger, "error">,
): Promise<string[]> {
  const failed: string[] = [];
  await Promise.all(
    Object.entries(loaders).map(async ([name, load]) => {
      try {
        await load();
      } catch (err) {
        failed.push(name);
        logger.error({ err, module: name }, "a native module failed to load: the features that need it will fail");
      }
    }),
  );
  return failed.sort();
}
