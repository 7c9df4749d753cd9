import { LinkToast } from "./LinkToast.tsx";

/** The toast a member gets when their group checks out: the message and a link to the order. */
export function OrderPlacedToast({ message, orderId }: { message: string; orderId: string }) {
  return <LinkToast message={message} to={`/orders/${orderId}`} label="View the order" />;
}
