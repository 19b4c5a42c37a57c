import type { Logger } from "@platform/logger";

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
