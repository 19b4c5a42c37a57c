// The one schema of the app, split by area. drizzle-kit reads every file in this folder.
export * from "./auth";

export * from "./catalog";
export * from "./diagnostics";
export * from "./line";
export * from "./loyalty";
export * from "./members";
export * from "./messaging";
export * from "./pos";
