import fs from "node:fs";
import path from "node:path";

/**
 * Headless Chromium as the measuring scripts launch it here: no sandbox (root), no GPU, and no
 * background connections, which this machine's closed network refuses.
 */
export const HEADLESS_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where Debian and Ubuntu put Chromium, after CHROMIUM_PATH. */
export const CHROMIUM_NAMES = ["chromium", "chromium-browser"];

export interface Lookup {
  env: Record<string, string | undefined>;
  isExecutable: (file: string) => boolean;
}

/**
 * The Chromium that the end-to-end tests and perf:web use: CHROMIUM_PATH when it points at an
 * executable, else /usr/bin/chromium, else chromium or chromium-browser on the PATH; null if none.
 */
export function findChromium({ env, isExecutable }: Lookup): string | null {
  const candidates = [
    env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    ...(env.PATH ?? "")
      .split(path.delimiter)
      .filter(Boolean)
      .flatMap((dir) => CHROMIUM_NAMES.map((name) => path.join(dir, name))),
  ];
  return candidates.find((file) => file !== undefined && file !== "" && isExecutable(file)) ?? null;
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** This machine's Chromium, or /usr/bin/chromium (whose absence the test preflight reports). */
export function chromiumPath(): string {
  return findChromium({ env: process.env, isExecutable }) ?? "/usr/bin/chromium";
}
