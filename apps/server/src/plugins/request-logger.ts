import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions } from "fastify/types/logger.js";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
type Root = FastifyBaseLogger & {
  levels: { values: Record<string, number> };
  isLevelEnabled(level: string): boolean;
};

/**
 * A request's logger (the root's, with the request id bound) that becomes a pino child the first
 * time the request writes a line at an enabled level: Fastify's childLoggerFactory. Fastify would
 * make the child for every request, serialising its bindings through the redaction, while at the
 * level servers run most requests write no line. A line written carries the same fields.
 */
class LazyChildLogger {
  #root: Root;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(root: Root, bindings: Bindings, options: ChildLoggerOptions) {
    this.#root = root;
    this.#bindings = bindings;
    this.#options = options;
  }

  #made(): FastifyBaseLogger {
    return (this.#child ??= this.#root.child(this.#bindings, this.#options));
  }

  #write(level: Level, args: unknown[]) {
    if (this.#child || this.isLevelEnabled(level)) {
      (this.#made()[level] as (...line: unknown[]) => void)(...args);
    }
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#root.level;
  }

  set level(value: string) {
    this.#made().level = value;
  }

  isLevelEnabled(level: string): boolean {
    const { values } = this.#root.levels;
    return values[level]! >= values[this.level]!;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }

  bindings(): Bindings {
    return (this.#made() as unknown as { bindings(): Bindings }).bindings();
  }

  silent(): void {}
  fatal(...args: unknown[]): void {
    this.#write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#write("error", args);
  }
  warn(...args: unknown[]): void {
    this.#write("warn", args);
  }
  info(...args: unknown[]): void {
    this.#write("info", args);
  }
  debug(...args: unknown[]): void {
    this.#write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#write("trace", args);
  }
}

/** Fastify's childLoggerFactory option: see LazyChildLogger. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger as Root, bindings, options) as unknown as FastifyBaseLogger;
}
