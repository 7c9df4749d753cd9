import { describe, expect, it } from "vitest";
import { headerLine, readHeader } from "../../src/features/backup/archive.ts";

describe("a backup file's header", () => {
  it("reads back what was written, and says where the dump starts", () => {
    const header = {
      database: "pglite" as const,
      createdAt: "2026-11-27T03:00:00.000Z",
      secret: "s".repeat(64),
    };
    const file = Buffer.concat([headerLine(header), Buffer.from([0x1f, 0x8b, 0x0a, 0x00])]);
    const read = readHeader(file);
    expect(read.header).toEqual(header);
    expect([...file.subarray(read.dumpOffset)]).toEqual([0x1f, 0x8b, 0x0a, 0x00]);
  });

  it("refuses a file that is no backup, and a damaged header", () => {
    expect(() => readHeader(Buffer.from("PGDMP\u0001\u000e\n"))).toThrow(/not a Cartner backup/);
    expect(() => readHeader(Buffer.from("CARTNER-BACKUP 1 {oops\n"))).toThrow(/damaged/);
    expect(() =>
      readHeader(
        Buffer.from(
          'CARTNER-BACKUP 1 {"database":"mysql","createdAt":"2026-11-27T03:00:00.000Z"}\n',
        ),
      ),
    ).toThrow(/damaged/);
  });
});
