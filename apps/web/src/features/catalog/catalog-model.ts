import type { CatalogChange, ProductChangeBody } from "@cartner/contract";
import type { FieldErrors } from "../../lib/form-errors.ts";
import { formatMoney } from "../../lib/format.ts";

/** What the inline editor holds: the text of each field as typed. */
export interface RowDraft {
  name: string;
  price: string;
  stock: string;
  available: boolean;
}

export const ROW_FIELDS = ["name", "price", "stock", "available"] as const;

/** "2.5", "2,50", " 3 " → 2.5, 2.5, 3; anything else stays text for the server to name. */
export function parseAmount(text: string): number | string {
  const trimmed = text.trim().replace(",", ".");
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : text;
}

/**
 * The PATCH body for what the draft changed (nothing unchanged is sent), with the fields the
 * browser can tell are wrong before asking: an empty name, a price or stock that is no number.
 */
export function changesOf(
  before: { name: string; price: number; stock: number; available: boolean },
  draft: RowDraft,
): { body: ProductChangeBody; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const body: ProductChangeBody = {};
  const name = draft.name.trim();
  if (name === "") errors.name = "Enter a name.";
  else if (name !== before.name) body.name = name;
  const price = parseAmount(draft.price);
  if (typeof price !== "number") errors.price = "Enter a price such as 2.99.";
  else if (price !== before.price) body.price = price;
  const stock = parseAmount(draft.stock);
  if (typeof stock !== "number" || !Number.isInteger(stock)) {
    errors.stock = "Enter a whole number of units.";
  } else if (stock !== before.stock) body.stock = stock;
  if (draft.available !== before.available) body.available = draft.available;
  return { body, errors };
}

const FIELD_NAMES: Record<string, string> = {
  name: "name",
  description: "description",
  category: "category",
  brand: "brand",
  gtin: "GTIN",
  price: "price",
  stock: "stock",
  available: "availability",
  image: "picture",
};

function shown(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (field === "price" && typeof value === "number") return formatMoney(value);
  if (field === "available") return value ? "on sale" : "off sale";
  return String(value);
}

/** A change in words: "Ann changed the price of Oat milk from $2.99 to $3.49". */
export function describeChange(change: CatalogChange, productName: string): string {
  const who = change.by?.name ?? "An import";
  if (change.field === "added") return `${who} added ${productName}`;
  if (change.field === "image") return `${who} changed the picture of ${productName}`;
  if (change.field === "available") {
    return `${who} ${change.to ? "put" : "took"} ${productName} ${change.to ? "on" : "off"} sale`;
  }
  const field = FIELD_NAMES[change.field] ?? change.field;
  return `${who} changed the ${field} of ${productName} from ${shown(change.field, change.from)} to ${shown(change.field, change.to)}`;
}
