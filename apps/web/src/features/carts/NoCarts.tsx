import { Hourglass, ShoppingBag } from "lucide-react";
import { ButtonLink, EmptyState } from "../../components/ui/index.ts";
import { WAITING_ANCHOR, useMyJoinRequests } from "../../api/join-requests.ts";

export const NO_CARTS_MESSAGE = "You have no carts yet.";

/** "Your request to join “Friday dinner” is waiting" (or how many are). */
export function waitingTitle(requests: readonly { sessionName: string }[]): string {
  const [first] = requests;
  return requests.length === 1 && first
    ? `Your request to join “${first.sessionName}” is waiting`
    : `Your requests to join ${requests.length} sessions are waiting`;
}

/**
 * My Cart with no cart: while a join request waits, that it does (a session's cart shows here
 * once its creator lets you in), with a link to where it can be seen and withdrawn; otherwise how
 * to get a cart.
 */
export function NoCarts() {
  const requests = useMyJoinRequests().data ?? [];
  if (requests.length > 0) {
    const creators = [...new Set(requests.map((r) => r.creator.name))];
    return (
      <EmptyState
        size="lg"
        icon={<Hourglass aria-hidden="true" className="size-7" />}
        title={waitingTitle(requests)}
      >
        <p>
          {creators.length === 1 ? creators[0] : "Each session's creator"} lets you in; then the
          session&apos;s cart shows here.
        </p>
        <ButtonLink to={`/sessions#${WAITING_ANCHOR}`} size="sm">
          See your {requests.length === 1 ? "request" : "requests"}
        </ButtonLink>
      </EmptyState>
    );
  }
  return (
    <EmptyState
      size="lg"
      icon={<ShoppingBag aria-hidden="true" className="size-7" />}
      title={NO_CARTS_MESSAGE}
    >
      <p>Each shopping session has one shared cart. Start or join a session to fill one.</p>
      <ButtonLink to="/sessions" size="sm">
        Go to sessions
      </ButtonLink>
    </EmptyState>
  );
}
