import { describe, expect, it } from "vitest";
import { describeDevice } from "./AccountCards.tsx";

describe("devices", () => {
  it("names browser and system from the user agent", () => {
    expect(
      describeDevice(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
      ),
    ).toEqual({ name: "Firefox on Windows", mobile: false });
    expect(
      describeDevice(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      ),
    ).toEqual({ name: "Mobile Safari on iOS", mobile: true });
    expect(describeDevice("")).toEqual({ name: "Unknown device", mobile: false });
  });
});
