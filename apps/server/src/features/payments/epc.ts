/**
 * The EPC QR code's payload (EPC069-12, "Quick Response Code: guidelines to enable data capture
 * for the initiation of a SEPA credit transfer"), version 002: banking apps scan it and fill in
 * the transfer. Lines are separated by LF; the optional trailing lines are left out.
 */
import { isSEPACountry } from "ibantools";

/** The beneficiary name holds at most 70 characters, the unstructured remittance 140. */
const NAME_MAX = 70;
const REMITTANCE_MAX = 140;
/** The whole payload holds at most 331 bytes (UTF-8). */
const PAYLOAD_MAX_BYTES = 331;
/** The largest amount the format takes, in cents (EUR 999999999.99). */
const AMOUNT_MAX_CENTS = 99_999_999_999;

export interface EpcTransfer {
  /** The beneficiary's name as their bank knows it (the account name, else their name). */
  name: string;
  /** Stored form: no spaces, upper case, valid. */
  iban: string;
  amountCents: number;
  /** Free text the beneficiary sees: the order number. */
  reference: string;
}

/**
 * The payload, or null when no valid code can be made: nothing to pay, more than the format
 * holds, an IBAN outside SEPA, or an empty name. Characters are counted as code points, so a
 * name is never cut inside one, and the whole stays within the format's 331 bytes.
 */
export function epcPayload(transfer: EpcTransfer): string | null {
  const { amountCents, iban } = transfer;
  if (!Number.isInteger(amountCents) || amountCents < 1 || amountCents > AMOUNT_MAX_CENTS) {
    return null;
  }
  if (!isSEPACountry(iban.slice(0, 2))) return null;
  const reference = clip(transfer.reference, REMITTANCE_MAX);
  // A name in a script of 3- or 4-byte characters can pass the byte limit: it is shortened.
  for (let length = NAME_MAX; length > 0; length--) {
    const name = clip(transfer.name, length);
    if (name === "") return null;
    const payload = lines(name, iban, amountCents, reference);
    if (new TextEncoder().encode(payload).length <= PAYLOAD_MAX_BYTES) return payload;
  }
  return null;
}

function lines(name: string, iban: string, amountCents: number, reference: string): string {
  return [
    "BCD", // service tag
    "002", // version: the BIC may be left out within the EEA
    "1", // character set: UTF-8
    "SCT", // SEPA credit transfer
    "", // BIC
    name,
    iban,
    `EUR${euros(amountCents)}`,
    "", // purpose code
    "", // structured (RF) creditor reference: ours is free text, below
    reference,
  ].join("\n");
}

/** 1240 -> "12.40": two decimals, a dot, no thousands separator. */
function euros(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** One line of at most `max` code points: line breaks become spaces, ends trimmed. */
function clip(value: string, max: number): string {
  return [...value.replace(/[\r\n]+/g, " ").trim()].slice(0, max).join("").trim();
}
