import { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { lazyChildLogger } from "../../src/plugins/request-logger.ts";

/** A root logger at `level` (with a redaction, as the server's) and the lines it writes. */
function rootAt(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const root = pino({ level, redact: ["*.password"] }, sink) as unknown as FastifyBaseLogger;
  return { root, lines };
}

describe("lazyChildLogger", () => {
  it("writes nothing below the level and binds the request id to the lines it writes", () => {
    const { root, lines } = rootAt("warn");
    const log = lazyChildLogger(root, { requestId: "r-1" }, {});
    log.info("not written");
    log.debug("not written either");
    expect(lines).toEqual([]);
    log.warn({ user: { password: "secret" } }, "written");
    log.info("still below the level");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ requestId: "r-1", msg: "written", level: 40 });
    expect(JSON.stringify(lines[0])).not.toContain("secret");
  });

  it("follows a route's own level and makes children with both bindings", () => {
    const { root, lines } = rootAt("warn");
    const log = lazyChildLogger(root, { requestId: "r-2" }, { level: "debug" });
    expect(log.level).toBe("debug");
    log.debug("a route's debug line");
    log.child({ part: "inner" }).warn("from a child");
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ["a route's debug line", "r-2"],
      ["from a child", "r-2"],
    ]);
    expect(lines[1]).toMatchObject({ part: "inner" });
  });
});
