/**
 * The EPC payload as a QR code a banking app reads: drawn by the qrcode library at error
 * correction M (what the web's pay panel does), then read back by jsQR, a decoder that knows
 * nothing of ours, to the same IBAN, amount and reference.
 */
import jsqr from "jsqr";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { epcPayload } from "../../src/features/payments/epc.ts";

// jsqr is CommonJS whose typings say `export default`: Node's loader gives the module object as
// the default import, vitest's the function itself.
const loaded: unknown = jsqr;
const jsQR = (typeof loaded === "function" ? loaded : jsqr.default) as typeof jsqr.default;

/** The code's modules as RGBA pixels, `scale` pixels a module, with the 4-module quiet zone. */
function pixels(text: string, scale = 4) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const side = (modules.size + 8) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < scale; y++) {
        for (let x = 0; x < scale; x++) {
          const at = (((row + 4) * scale + y) * side + (col + 4) * scale + x) * 4;
          data.fill(0, at, at + 3);
        }
      }
    }
  }
  return { data, side };
}

describe("the EPC QR code", () => {
  it.each([
    ["a plain name", "Ann Example", 1240],
    ["accents and a large amount", "Zoë Müller-Lüdenscheidt", 123_456_789],
    ["the longest name", "Ä".repeat(70), 1],
  ])("decodes to the payee's IBAN, the amount and the order number (%s)", (_what, name, cents) => {
    const payload = epcPayload({
      name,
      iban: "DE89370400440532013000",
      amountCents: cents,
      reference: "CRT-000042",
    })!;
    const { data, side } = pixels(payload);
    const read = jsQR(data, side, side);
    expect(read?.data).toBe(payload);
    const lines = read!.data.split("\n");
    expect(lines.slice(0, 4)).toEqual(["BCD", "002", "1", "SCT"]);
    expect(lines[5]).toBe(name);
    expect(lines[6]).toBe("DE89370400440532013000");
    expect(lines[7]).toBe(`EUR${(cents / 100).toFixed(2)}`);
    expect(lines[10]).toBe("CRT-000042");
  });
});
