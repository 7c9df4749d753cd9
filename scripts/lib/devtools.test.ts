import { describe, expect, it } from "vitest";
import { cdpSession, evaluate, waitForPage, type MessageSocket } from "./devtools.ts";

interface Call {
  id: number;
  method: string;
  params: Record<string, unknown>;
}

/**
 * A tab's DevTools socket: `answer` decides each call's answer (a result, or an error message, or
 * undefined to answer later by hand), `emit` sends an event.
 */
function fakeTab(answer: (call: Call) => { result?: unknown; error?: string } | undefined) {
  const listeners: Record<string, Array<(event: { data: unknown }) => void>> = {};
  const calls: Call[] = [];
  const deliver = (message: object) =>
    queueMicrotask(() => {
      for (const listener of listeners.message ?? []) listener({ data: JSON.stringify(message) });
    });
  const socket: MessageSocket = {
    send: (data) => {
      const call = JSON.parse(data) as Call;
      calls.push(call);
      const reply = answer(call);
      if (!reply) return;
      deliver(
        reply.error !== undefined
          ? { id: call.id, error: { code: -32000, message: reply.error } }
          : { id: call.id, result: reply.result },
      );
    },
    addEventListener: (type: string, listener: (event: { data: unknown }) => void) => {
      (listeners[type] ??= []).push(listener);
    },
  };
  return {
    session: cdpSession(socket),
    calls,
    reply: (id: number, result: unknown) => deliver({ id, result }),
    emit: (method: string, params: unknown) => deliver({ method, params }),
    closeSocket: () => {
      for (const listener of listeners.close ?? []) listener({ data: undefined });
    },
  };
}

const value = (v: unknown) => ({ result: { result: { type: typeof v, value: v } } });
const context = (id: number, origin: string) => ({
  context: { id, origin, name: "", auxData: { isDefault: true, type: "default", frameId: "F" } },
});

describe("cdpSession", () => {
  it("gives each of several calls in flight its own answer", async () => {
    const tab = fakeTab(() => undefined);
    const first = tab.session.send("Page.getAppManifest");
    const second = tab.session.send("Page.getInstallabilityErrors");
    const [a, b] = tab.calls;
    tab.reply(b!.id, { installabilityErrors: [] });
    tab.reply(a!.id, { url: "/manifest.webmanifest" });
    expect(await first).toEqual({ url: "/manifest.webmanifest" });
    expect(await second).toEqual({ installabilityErrors: [] });
  });

  it("fails a call with the protocol's error, and the calls in flight when the socket closes", async () => {
    const tab = fakeTab((call) =>
      call.method === "Nope.nope" ? { error: "not found" } : undefined,
    );
    await expect(tab.session.send("Nope.nope")).rejects.toThrow("Nope.nope: not found");
    const waiting = tab.session.send("Runtime.enable");
    tab.closeSocket();
    await expect(waiting).rejects.toThrow("Runtime.enable: connection closed");
  });
});

describe("evaluate", () => {
  it("waits for the page's context when the tab has none yet, then answers", async () => {
    let attempts = 0;
    const tab = fakeTab(() =>
      ++attempts <= 2 ? { error: "Cannot find default execution context" } : value("ok"),
    );
    expect(await evaluate(tab.session, "location.origin", { retryMs: 1 })).toBe("ok");
    expect(attempts).toBe(3);
    expect(tab.calls[2]).toMatchObject({
      method: "Runtime.evaluate",
      params: { expression: "location.origin", awaitPromise: true, returnByValue: true },
    });
  });

  it("also waits out a navigation that destroys the context mid-call", async () => {
    let attempts = 0;
    const tab = fakeTab(() =>
      ++attempts === 1 ? { error: "Execution context was destroyed." } : value(1),
    );
    expect(await evaluate(tab.session, "1", { retryMs: 1 })).toBe(1);
  });

  it("gives up after its bound with the protocol's error", async () => {
    const tab = fakeTab(() => ({ error: "Cannot find default execution context" }));
    const started = Date.now();
    await expect(evaluate(tab.session, "1", { timeoutMs: 50, retryMs: 5 })).rejects.toThrow(
      "Runtime.evaluate: Cannot find default execution context",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    expect(tab.calls.length).toBeGreaterThan(1);
  });

  it("fails at once on other errors and on an exception thrown in the page", async () => {
    const broken = fakeTab(() => ({ error: "Target closed" }));
    await expect(evaluate(broken.session, "1", { retryMs: 1 })).rejects.toThrow("Target closed");
    expect(broken.calls).toHaveLength(1);
    const throwing = fakeTab(() => ({
      result: {
        result: { type: "object" },
        exceptionDetails: { text: "Uncaught", exception: { description: "ReferenceError: x" } },
      },
    }));
    await expect(evaluate(throwing.session, "x")).rejects.toThrow(
      "the page threw: ReferenceError: x",
    );
    expect(throwing.calls).toHaveLength(1);
  });
});

describe("waitForPage", () => {
  const ORIGIN = "http://127.0.0.1:3460";

  it("waits past about:blank for the context of the page's origin", async () => {
    const tab = fakeTab((call) => (call.method === "Runtime.enable" ? { result: {} } : undefined));
    let done = false;
    const waiting = waitForPage(tab.session, ORIGIN).then(() => (done = true));
    // Runtime.enable reports the context that exists: the new tab's about:blank.
    tab.emit("Runtime.executionContextCreated", context(1, "://"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toBe(false);
    tab.emit("Runtime.executionContextDestroyed", { executionContextId: 1 });
    tab.emit("Runtime.executionContextCreated", context(2, ORIGIN));
    await waiting;
    expect(tab.calls.map((call) => call.method)).toEqual(["Runtime.enable"]);
  });

  it("answers at once when the page is already there", async () => {
    const tab = fakeTab((call) => {
      if (call.method !== "Runtime.enable") return undefined;
      tab.emit("Runtime.executionContextCreated", context(3, ORIGIN));
      return { result: {} };
    });
    await waitForPage(tab.session, ORIGIN, { timeoutMs: 1_000 });
  });

  it("gives up after its bound", async () => {
    const tab = fakeTab(() => ({ result: {} }));
    await expect(waitForPage(tab.session, ORIGIN, { timeoutMs: 30 })).rejects.toThrow(
      `no page of ${ORIGIN} in the tab within 30 ms`,
    );
  });
});
