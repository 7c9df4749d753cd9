import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// The products grid renders as a deferred (background) update, and a page's lazy parts load on
// first use; with the server suites running beside it on a 2-core machine, jsdom can take over
// 3 s for either: findBy* and waitFor wait up to 8 s instead of 1 s (a passing test waits no longer).
configure({ asyncUtilTimeout: 8000 });

// jsdom does not implement scrolling; the router's scroll restoration calls it.
window.scrollTo = () => undefined;

// Nor does it implement ResizeObserver, which Radix's Slider uses to measure its thumbs.
if (typeof window.ResizeObserver === "undefined") {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// The live socket is opt-in per test (a fake server, see features/live): without WebSocket the app
// polls as it always did, and no test reaches for a real server.
beforeEach(() => {
  vi.stubGlobal("WebSocket", undefined);
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
