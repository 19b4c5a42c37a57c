import { describe, expect, it, vi } from "vitest";
import { loadDeferredModules, onFirstUse } from "./deferred-modules";

describe("loadDeferredModules", () => {
  it("loads every module and logs nothing when all load", async () => {
    const logger = { error: vi.fn() };
    const sharp = vi.fn(async () => ({}));
    const argon2 = vi.fn(async () => ({}));
    expect(await loadDeferredModules({ sharp, argon2 }, logger)).toEqual([]);
    expect(sharp).toHaveBeenCalledOnce();
    expect(argon2).toHaveBeenCalledOnce();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("logs each module that fails by name, still loads the others, and does not reject", async () => {
    const logger = { error: vi.fn() };
    const broken = new Error("libvips-cpp.so: cannot open shared object file");
    const argon2 = vi.fn(async () => ({}));
    const failed = await loadDeferredModules({ sharp: () => Promise.reject(broken), argon2 }, logger);
    expect(failed).toEqual(["sharp"]);
    expect(argon2).toHaveBeenCalledOnce();
    expect(logger.error).toHaveBeenCalledOnce();
    expect(logger.error).toHaveBeenCalledWith(
      { err: broken, module: "sharp" },
      expect.stringContaining("failed to load"),
    );
  });
});

describe("onFirstUse", () => {
  it("loads once for every caller, at the first call, not before", async () => {
    const load = vi.fn(async () => ({ name: "module" }));
    const get = onFirstUse(load);
    expect(load).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(load).toHaveBeenCalledOnce();
  });

  it("forgets a failed load: the next call tries again", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("not installed")).mockResolvedValueOnce("loaded");
    const get = onFirstUse(load);
    await expect(get()).rejects.toThrow("not installed");
    expect(await get()).toBe("loaded");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
