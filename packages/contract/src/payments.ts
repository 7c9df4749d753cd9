/**
 * How people like to be paid, what a member who owes sees to pay, and the deployment's currency.
 * The IBAN rule is ISO 13616 (country, length, BBAN format, mod-97 checksum) as ibantools checks it.
 */
import { electronicFormatIBAN, validateIBAN, ValidationErrorsIBAN } from "ibantools";
import { z } from "zod";
import { text } from "./text.ts";

/** The EPC QR code's beneficiary name holds at most 70 characters. */
export const ACCOUNT_NAME_MAX_LENGTH = 70;
export const PAY_LINK_MAX_LENGTH = 300;
export const PAYMENT_NOTE_MAX_LENGTH = 300;
/** Typed with spaces ("DE89 3704 0044 0532 0130 00"); the longest IBAN has 34 characters. */
const IBAN_TYPED_MAX_LENGTH = 50;

/** Why an IBAN is refused, in words a person can act on; null when it is valid. */
export function ibanProblem(iban: string): string | null {
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return null;
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) {
    return "Start the IBAN with its two-letter country code, e.g. DE or NL";
  }
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) {
    return `An IBAN from ${iban.slice(0, 2)} has another length: check for a missing or extra character`;
  }
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) {
    return "This IBAN's check digits do not match: check for a typo";
  }
  return "This is not a valid IBAN: check for a typo";
}

/** The IBAN as stored and shown: no spaces, upper case ("DE89370400440532013000"). */
export const normaliseIban = (iban: string): string => electronicFormatIBAN(iban) ?? "";

/** Empty text clears a field: "" and null both become null. */
const cleared = <T extends z.ZodType<string, string>>(schema: T) =>
  schema.nullable().transform((value) => (value === "" || value === null ? null : value));

export const IbanSchema = text({
  max: IBAN_TYPED_MAX_LENGTH,
  maxMessage: "An IBAN is at most 34 characters",
}).transform((value, ctx) => {
  if (value === "") return value;
  const iban = normaliseIban(value);
  const problem = ibanProblem(iban);
  if (problem === null) return iban;
  ctx.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});

/** An https URL (PayPal.me, a bank's payment link): other schemes could run script when opened. */
export const PayLinkSchema = text({
  max: PAY_LINK_MAX_LENGTH,
  maxMessage: `A link is at most ${PAY_LINK_MAX_LENGTH} characters`,
}).refine((value) => {
  if (value === "") return true;
  try {
    const url = new URL(value);
    return (
      url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password
    );
  } catch {
    return false;
  }
}, "Enter an https:// link, e.g. https://paypal.me/yourname");

/**
 * PUT /users/me/payment-details: the whole set. A field left out, empty or null is cleared, so
 * what the form shows is what is stored.
 */
export const PaymentDetailsBodySchema = z.strictObject({
  iban: cleared(IbanSchema).optional(),
  accountName: cleared(
    text({
      max: ACCOUNT_NAME_MAX_LENGTH,
      maxMessage: `The account name is at most ${ACCOUNT_NAME_MAX_LENGTH} characters`,
      name: true,
    }),
  ).optional(),
  payLink: cleared(PayLinkSchema).optional(),
  note: cleared(
    text({
      max: PAYMENT_NOTE_MAX_LENGTH,
      maxMessage: `The note is at most ${PAYMENT_NOTE_MAX_LENGTH} characters`,
      multiline: true,
    }),
  ).optional(),
});
export type PaymentDetailsBody = z.input<typeof PaymentDetailsBodySchema>;

/** Someone's payment details; every field null when they stored none. */
export const PaymentDetailsSchema = z.object({
  iban: z.string().nullable(),
  accountName: z.string().nullable(),
  payLink: z.string().nullable(),
  note: z.string().nullable(),
});
export type PaymentDetails = z.infer<typeof PaymentDetailsSchema>;
export const PaymentDetailsResponseSchema = z.object({ details: PaymentDetailsSchema });

/**
 * GET /orders/:id/pay-info: what a member pays the payee for this order. `amount` is what is
 * still owed (0 once the payee settled the share); `details` are the payee's payment details
 * while something is owed, every field null once nothing is; `reference` is the order number;
 * `epcQr` is the EPC (SEPA credit transfer) QR payload when the deployment's currency is EUR, the
 * payee has a SEPA IBAN and something is owed, else null.
 */
export const PayInfoSchema = z.object({
  payee: z.object({ _id: z.string(), name: z.string() }),
  details: PaymentDetailsSchema,
  amount: z.number(),
  reference: z.string(),
  epcQr: z.string().nullable(),
});
export type PayInfo = z.infer<typeof PayInfoSchema>;

/** What the web needs to know of the deployment before showing any amount. */
export const PublicConfigSchema = z.object({
  /** ISO 4217 code of every amount (the CURRENCY setting). */
  currency: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
