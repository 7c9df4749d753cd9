import { describe, expect, it } from "vitest";
import { findChromium } from "./chromium.ts";

const only =
  (...present: string[]) =>
  (file: string) =>
    present.includes(file);

describe("findChromium", () => {
  it("takes CHROMIUM_PATH when it is an executable", () => {
    expect(
      findChromium({
        env: { CHROMIUM_PATH: "/opt/chrome", PATH: "/usr/bin" },
        isExecutable: only("/opt/chrome", "/usr/bin/chromium"),
      }),
    ).toBe("/opt/chrome");
  });

  it("falls back to /usr/bin/chromium when CHROMIUM_PATH points nowhere", () => {
    expect(
      findChromium({ env: { CHROMIUM_PATH: "/nope" }, isExecutable: only("/usr/bin/chromium") }),
    ).toBe("/usr/bin/chromium");
  });

  it("finds chromium-browser on the PATH", () => {
    expect(
      findChromium({
        env: { PATH: "/snap/bin:/usr/local/bin" },
        isExecutable: only("/usr/local/bin/chromium-browser"),
      }),
    ).toBe("/usr/local/bin/chromium-browser");
  });

  it("answers null when there is none", () => {
    expect(
      findChromium({ env: { CHROMIUM_PATH: "/nope", PATH: "/bin" }, isExecutable: only() }),
    ).toBe(null);
  });
});
