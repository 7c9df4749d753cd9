/**
 * A small Chrome DevTools Protocol client for what perf:web and trace:web do in a tab:
 * calls answered by id, events handed to listeners, and evaluation that waits for the page instead
 * of racing its creation.
 */

/** A protocol connection to one target. */
export interface CdpSession {
  send<T = unknown>(method: string, params?: object): Promise<T>;
  /** Calls `listener` with the params of every `method` event; returns what stops it. */
  on(method: string, listener: (params: unknown) => void): () => void;
}

/** The part of a WebSocket the session uses. */
export interface MessageSocket {
  send(data: string): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: () => void): void;
}

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message: string };
}

/** A session over the target's socket. Calls may overlap: each answer goes to its own call. */
export function cdpSession(socket: MessageSocket): CdpSession {
  let nextId = 0;
  const calls = new Map<
    number,
    { method: string; resolve: (result: unknown) => void; reject: (error: Error) => void }
  >();
  const listeners = new Map<string, Set<(params: unknown) => void>>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as Message;
    if (message.id === undefined) {
      for (const listener of listeners.get(message.method ?? "") ?? []) listener(message.params);
      return;
    }
    const call = calls.get(message.id);
    if (!call) return;
    calls.delete(message.id);
    if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`));
    else call.resolve(message.result);
  });
  socket.addEventListener("close", () => {
    for (const call of calls.values()) call.reject(new Error(`${call.method}: connection closed`));
    calls.clear();
  });
  return {
    send: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++nextId;
        calls.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    on: (method, listener) => {
      const set = listeners.get(method) ?? new Set();
      listeners.set(method, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

/**
 * A new tab at `url` in the Chromium whose DevTools listen on `debugPort`, and a session on it;
 * `close` closes both.
 */
export async function openTab(debugPort: number, url: string) {
  const devtools = `http://127.0.0.1:${debugPort}`;
  const target = (await (await fetch(`${devtools}/json/new?${url}`, { method: "PUT" })).json()) as {
    id: string;
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  const close = async () => {
    socket.close();
    await fetch(`${devtools}/json/close/${target.id}`);
  };
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  return { session: cdpSession(socket), close };
}

/**
 * What Runtime.evaluate answers while the page has no JavaScript context: before its first one is
 * created, or between a navigation destroying one and creating the next.
 */
const NO_CONTEXT =
  /Cannot find default execution context|Execution context was destroyed|Cannot find context with specified id/;

export interface Patience {
  /** How long to keep waiting, in ms. */
  timeoutMs?: number;
  /** The pause between two attempts, in ms. */
  retryMs?: number;
}

/**
 * Runs `expression` in the page (awaiting a promise) and answers its value. While the page has no
 * context yet it tries again, every `retryMs` for up to `timeoutMs`; other errors, and an
 * exception thrown in the page, fail at once.
 */
export async function evaluate(
  session: CdpSession,
  expression: string,
  { timeoutMs = 30_000, retryMs = 100 }: Patience = {},
): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let answer;
    try {
      answer = await session.send<{
        result?: { value?: unknown };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      }>("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    } catch (error) {
      if (!NO_CONTEXT.test(String(error)) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      continue;
    }
    const thrown = answer.exceptionDetails;
    if (thrown) throw new Error(`the page threw: ${thrown.exception?.description ?? thrown.text}`);
    return answer.result?.value;
  }
}

interface ContextCreated {
  context: { origin: string; auxData?: { isDefault?: boolean } };
}

/**
 * Waits until the tab holds a page of `origin` with its JavaScript context: a new tab starts on
 * about:blank, whose context comes first. Runtime.enable reports the contexts that exist, then
 * each one created (Runtime.executionContextCreated).
 */
export async function waitForPage(
  session: CdpSession,
  origin: string,
  { timeoutMs = 30_000 }: Pick<Patience, "timeoutMs"> = {},
): Promise<void> {
  let stop = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const created = new Promise<void>((resolve) => {
    stop = session.on("Runtime.executionContextCreated", (params) => {
      const { context } = params as ContextCreated;
      if (context.origin === origin && context.auxData?.isDefault !== false) resolve();
    });
  });
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no page of ${origin} in the tab within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([session.send("Runtime.enable").then(() => created), late]);
  } finally {
    stop();
    clearTimeout(timer);
  }
}
