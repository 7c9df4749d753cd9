/* What other features and the layout use of orders: the order model's labels and share maths. */
export {
  PAID_BUTTON,
  canSayPaid,
  myShare,
  shareStatusLabel,
  shareTone,
  sharesToPayLabel,
  unpaidShareCount,
} from "./order-model.ts";
