import { describe, expect, it } from "vitest";
import { PersonNameSchema } from "./auth.ts";
import { ProfileFieldsSchema } from "./profile.ts";
import { CreateSessionBodySchema, SessionCodeSchema } from "./sessions.ts";
import { text, wellFormed } from "./text.ts";

const line = text({ max: 20 });
const bio = text({ max: 50, multiline: true });
const name = text({ min: 1, max: 20, name: true });

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe("text()", () => {
  it("normalises to NFC and trims", () => {
    // "é" as e + combining acute becomes the one code point.
    expect(line.parse("  Cafe\u0301 ")).toBe("Caf\u00e9");
  });

  it.each(["a\u0000b", "a\u001bb", "a\u007fb", "a\u0085b", "a\u0008b"])(
    "refuses control characters (%j)",
    (value) => {
      expect(line.safeParse(value).success).toBe(false);
      expect(bio.safeParse(value).success).toBe(false);
    },
  );

  it("allows line breaks only where the field is multi-line", () => {
    expect(message(line.safeParse("one\ntwo"))).toBe("must be a single line of text");
    expect(bio.parse("one\r\ntwo\tthree")).toBe("one\r\ntwo\tthree");
  });

  it("refuses unpaired surrogates but keeps emoji", () => {
    expect(wellFormed("\ud83d")).toBe(false);
    expect(wellFormed("a\udc00")).toBe(false);
    expect(line.safeParse("x\ud83dy").success).toBe(false);
    expect(line.parse("👩‍👩‍👧 ok")).toBe("👩‍👩‍👧 ok");
  });

  it.each(["evil\u202egnp.exe", "\u2066x\u2069", "a\u200fb", "a\u061cb"])(
    "refuses text-direction controls in names (%j)",
    (value) => {
      expect(message(name.safeParse(value))).toBe("must not contain text-direction characters");
    },
  );

  it.each(["\u200b\u200b", " \u200d ", "\ufeff", "\u2060\u00ad"])(
    "refuses names that draw nothing (%j)",
    (value) => {
      expect(name.safeParse(value).success).toBe(false);
    },
  );

  it("keeps right-to-left scripts themselves", () => {
    expect(name.parse("سارة")).toBe("سارة");
    expect(name.parse("דנה")).toBe("דנה");
  });

  it("counts the length after normalising", () => {
    expect(text({ max: 3 }).safeParse("e\u0301e\u0301e\u0301").success).toBe(true);
  });
});

describe("the contract's text fields use it", () => {
  it("names, session names, passcodes, codes and profile fields refuse NUL", () => {
    expect(PersonNameSchema.safeParse("a\u0000b").success).toBe(false);
    expect(SessionCodeSchema.safeParse("AB\u0000DEFGH").success).toBe(false);
    const session = { sessionType: "Friends", participants: "3+" };
    expect(CreateSessionBodySchema.safeParse({ ...session, sessionName: "a\u0000b" }).success).toBe(
      false,
    );
    expect(
      CreateSessionBodySchema.safeParse({ ...session, sessionName: "ok", passcode: "a\u0000b" })
        .success,
    ).toBe(false);
    expect(ProfileFieldsSchema.safeParse({ bio: "hi\u0000there" }).success).toBe(false);
    expect(ProfileFieldsSchema.parse({ bio: "hi\nthere" })).toEqual({ bio: "hi\nthere" });
  });
});
