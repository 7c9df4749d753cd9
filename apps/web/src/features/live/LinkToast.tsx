import type { MouseEvent } from "react";
import { navigateTo } from "../../lib/navigation.ts";

/**
 * A live toast's message with a link to the page it is about. The toast container sits outside
 * the router, so the link navigates through the registered navigator (a modifier-click still
 * opens a new tab).
 */
export function LinkToast({ message, to, label }: { message: string; to: string; label: string }) {
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
        {label}
      </a>
    </p>
  );
}
