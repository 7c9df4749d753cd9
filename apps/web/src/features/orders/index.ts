/* What other features and the layout use of orders: the order model's labels and share maths. */
export {
  PAID_BUTTON,
  STATUS_LABEL,
  STATUS_TONE,
  myShare,
  sharesToPayLabel,
  unpaidShareCount,
} from "./order-model.ts";
