/**
 * The bodies of a free line (something the catalog does not have, by name) and of a line's
 * note and substitute. Apart from carts.ts, whose schemas the web's first load may reach: these
 * build string checks (text()) only the endpoint table and the server need.
 */
import { z } from "zod";
import { HiddenFromIdsSchema, SubstituteSchema } from "./carts.ts";
import {
  APPROVAL_MESSAGE_MAX_LENGTH,
  FREE_LINE_ESTIMATE_MAX,
  FREE_LINE_NAME_MAX_LENGTH,
  LINE_NOTE_MAX_LENGTH,
  QUANTITY_MAX,
  QUANTITY_MIN,
} from "./constants.ts";
import { text } from "./text.ts";

const freeLineName = text({
  min: 1,
  minMessage: "name is required",
  max: FREE_LINE_NAME_MAX_LENGTH,
  maxMessage: `name is at most ${FREE_LINE_NAME_MAX_LENGTH} characters`,
  name: true,
});
/** A unit price in currency units with at most two decimals (cents). */
const estimatedPrice = z
  .number("estimatedPrice is a number")
  .min(0, "estimatedPrice cannot be negative")
  .max(FREE_LINE_ESTIMATE_MAX, "estimatedPrice is too large")
  .refine(
    (n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
    "estimatedPrice has at most two decimals",
  );
/** An empty note (or null) takes the note away. */
const lineNote = text({
  max: LINE_NOTE_MAX_LENGTH,
  maxMessage: `note is at most ${LINE_NOTE_MAX_LENGTH} characters`,
}).nullable();
/** Something the catalog does not have, by name; priced for real on the order. */
export const FreeLineBodySchema = z.strictObject({
  name: freeLineName,
  quantity: z.number().int().min(QUANTITY_MIN).max(QUANTITY_MAX).default(1),
  estimatedPrice: estimatedPrice.optional(),
  note: lineNote.optional(),
  /** Private from the start: the members the line is hidden from (as on a product's add). */
  hiddenFrom: HiddenFromIdsSchema.optional(),
});
export type FreeLineBody = z.input<typeof FreeLineBodySchema>;

/**
 * POST /carts/:cartId/lines/:lineId/approve and /decline: the approver's optional message to the
 * line's adder (an empty one is none).
 */
export const LineDecisionBodySchema = z
  .strictObject({
    message: text({
      max: APPROVAL_MESSAGE_MAX_LENGTH,
      maxMessage: `message is at most ${APPROVAL_MESSAGE_MAX_LENGTH} characters`,
    }).optional(),
  })
  .nullish();
export type LineDecisionBody = z.input<typeof LineDecisionBodySchema>;

/** A line's note and substitute; a free line's name and estimate too. At least one field. */
export const LinePatchBodySchema = z
  .strictObject({
    note: lineNote.optional(),
    substitute: SubstituteSchema.optional(),
    name: freeLineName.optional(),
    estimatedPrice: estimatedPrice.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "Nothing to change");
export type LinePatchBody = z.input<typeof LinePatchBodySchema>;
