/**
 * Preloaded into a benchmarked server (`node --expose-gc --import gc-on-signal.ts`): SIGWINCH runs
 * a full garbage collection, so the memory read just after it is what the server holds, not
 * garbage that a collection may or may not have freed yet (that noise swings RSS by 100 MB).
 * SIGWINCH because it is harmless without this handler; close-with-grace treats SIGUSR2 as a stop.
 */
process.on("SIGWINCH", () => {
  (globalThis as { gc?: () => void }).gc?.();
});
