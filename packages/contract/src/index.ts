export * from "./constants.ts";
export * from "./errors.ts";
export * from "./auth.ts";
export * from "./products.ts";
export * from "./money.ts";
export * from "./sessions.ts";
export * from "./pricing.ts";
export * from "./carts.ts";
