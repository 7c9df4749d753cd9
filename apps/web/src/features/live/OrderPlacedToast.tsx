import type { MouseEvent } from "react";
import { navigateTo } from "../../lib/navigation.ts";

/**
 * The toast a member gets when their group checks out: the message and a link to the order. The
 * toast container sits outside the router, so the link navigates through the registered navigator
 * (a modifier-click still opens a new tab).
 */
export function OrderPlacedToast({ message, orderId }: { message: string; orderId: string }) {
  const to = `/orders/${orderId}`;
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) {
      return;
    }
    event.preventDefault();
    void navigateTo(to);
  }
  return (
    <p>
      {message}{" "}
      <a href={to} onClick={onClick} className="font-semibold text-primary-700 underline">
        View the order
      </a>
    </p>
  );
}
