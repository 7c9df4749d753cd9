export * from "./constants.ts";
export * from "./errors.ts";
export * from "./auth.ts";
