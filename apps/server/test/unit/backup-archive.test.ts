import { describe, expect, it } from "vitest";
import {
  describeDump,
  dumpDefect,
  headerLine,
  readHeader,
} from "../../src/features/backup/archive.ts";

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

describe("an embedded dump against its header", () => {
  const dump = Buffer.from("the data directory, as a tarball");
  const header = {
    database: "pglite" as const,
    createdAt: "2026-11-27T03:00:00.000Z",
    dump: describeDump(dump),
  };
  const offset = headerLine(header).length;

  it("is accepted whole, and reads back its description", () => {
    expect(readHeader(headerLine(header)).header.dump).toEqual(header.dump);
    expect(dumpDefect(header, dump, offset)).toBeNull();
  });

  it("names where a cut-short file ends, a longer one, and an altered one", () => {
    expect(dumpDefect(header, dump.subarray(0, 10), offset)).toBe(
      `truncated at byte ${offset + 10} of ${offset + dump.length} (copy the whole file again)`,
    );
    expect(dumpDefect(header, Buffer.concat([dump, Buffer.from("xx")]), offset)).toMatch(
      /^2 bytes longer/,
    );
    const altered = Buffer.from(dump);
    altered[3] = 0x21;
    expect(dumpDefect(header, altered, offset)).toMatch(/checksum does not match/);
  });

  it("is not checked here when the header describes none (a backup made before)", () => {
    expect(dumpDefect({ ...header, dump: undefined }, dump.subarray(0, 1), offset)).toBeNull();
  });
});
