/**
 * A WebSocket stand-in for tests: records what the client sends, and lets the test play the
 * server (open, send a message, close with a code). Every instance is kept, newest last.
 */
export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];

  readonly url: string;
  readyState = FakeSocket.CONNECTING;
  readonly sent: unknown[] = [];
  /** The code the client closed with, if it did. */
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;

  constructor(url: string) {
    this.url = url;
    FakeSocket.instances.push(this);
  }

  static reset(): void {
    FakeSocket.instances = [];
  }

  static latest(): FakeSocket {
    const socket = FakeSocket.instances.at(-1);
    if (!socket) throw new Error("no socket was opened");
    return socket;
  }

  // What the client calls.

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code = 1005): void {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.closedWith = code;
    this.finish(code);
  }

  // What the test (the server) does.

  serverOpen(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.(new Event("open"));
  }

  serverSend(message: object): void {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(message) }));
  }

  /** Opens, lets the client authenticate, answers ready. */
  serverAccept(): void {
    this.serverOpen();
    this.serverSend({ type: "ready" });
  }

  serverClose(code: number): void {
    this.finish(code);
  }

  serverError(): void {
    this.onerror?.(new Event("error"));
  }

  private finish(code: number): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.(new CloseEvent("close", { code }));
  }
}

/** The class, typed as the browser's, for `startLiveClient({ WebSocket })` and vi.stubGlobal. */
export const FakeWebSocket = FakeSocket as unknown as typeof WebSocket;
