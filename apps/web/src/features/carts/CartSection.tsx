import { roleIn } from "../../shared/roles.ts";
import { useId } from "react";
import { Eraser, Power, ShoppingBag } from "lucide-react";
import { can, type Cart, type CartLine } from "@cartner/contract";
import { Badge, Button, ButtonLink } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import {
  canChangeLine,
  canManageCart,
  cartHeaderLine,
  isSessionActive,
  itemsLabel,
  sessionNameOf,
} from "./cart-model.ts";
import { type LineState } from "./pending-writes.ts";
import { ActivityFeed } from "../activity/index.ts";
import { END_SESSION_LABEL } from "../../shared/EndSessionDialog.tsx";
import { DeadlineNotice, useDeadlineNow } from "../../shared/DeadlineNotice.tsx";
import { isClosed } from "../../shared/deadline-text.ts";
import { CartTotal, CollapseToggle } from "./cart-parts.tsx";
import { BuyAgain } from "./BuyAgain.tsx";
import { CartLinesTable } from "./CartLinesTable.tsx";
import { FreeLineForm } from "./FreeLineForm.tsx";
import { canApprove } from "./LineApproval.tsx";
import { LineHiding } from "./LineHiding.tsx";
import { LineSharing } from "./LineSharing.tsx";
import { OrderSummaryCard } from "./OrderSummaryCard.tsx";
import { SplitPanel } from "./SplitPanel.tsx";

const roleLabels = {
  creator: "Creator",
  participant: "Participant",
  viewer: "Viewer",
  pending: "Pending",
} as const;

export interface CartSectionProps {
  cart: Cart;
  /** Lines with changes not yet confirmed by the server. */
  lineStates?: ReadonlyMap<string, LineState>;
  /** How many of the user's changes to this cart the server has not confirmed yet (drawn in). */
  unsent?: number;
  userId: string | null | undefined;
  open: boolean;
  onToggle: () => void;
  onChangeQuantity: (cart: Cart, line: CartLine, change: 1 | -1) => void;
  onRemoveLine: (cart: Cart, line: CartLine) => void;
  onClear: (cart: Cart) => void;
  /** End Session (creator): the one action that ends a session, named as in the lobby. */
  onEnd: (cart: Cart) => void;
  clearing?: boolean;
  ending?: boolean;
}

/** One cart on the cart page: its header (who, how many, actions) and, expanded, its lines. */
export function CartSection({
  cart,
  lineStates,
  unsent = 0,
  userId,
  open,
  onToggle,
  onChangeQuantity,
  onRemoveLine,
  onClear,
  onEnd,
  clearing = false,
  ending = false,
}: CartSectionProps) {
  const titleId = useId();
  const panelId = useId();
  const name = sessionNameOf(cart);
  const role = roleIn(cart.sessionId, userId);
  const active = isSessionActive(cart);
  const deadline = cart.sessionId?.deadline ?? null;
  const now = useDeadlineNow(deadline);
  // Past its deadline the cart takes no changes (the server refuses them: 409 CART_LOCKED).
  const closed = active && isClosed(deadline, now);
  const changeable = active && !closed;
  const manage = canManageCart(role, active);
  const canAdd = changeable && (role === "creator" || role === "participant");
  const empty = cart.products.length === 0;

  return (
    <section
      aria-labelledby={titleId}
      data-testid="cart-section"
      className="overflow-hidden rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5"
    >
      <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={titleId} className="text-lg font-bold break-words sm:text-xl">
              {name}
            </h2>
            {role && (
              <Badge tone={role === "creator" ? "accent" : "neutral"}>
                You: {roleLabels[role]}
              </Badge>
            )}
          </div>
          <p className="text-sm text-slate-600">{cartHeaderLine(cart, userId)}</p>
          <p className="text-sm text-slate-500">
            {itemsLabel(cart.itemCount)} · {formatMoney(cart.totalPrice)}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2 max-sm:justify-end">
          {manage && (
            <Button
              variant="secondary"
              size="sm"
              disabled={empty || closed}
              loading={clearing}
              onClick={() => onClear(cart)}
            >
              {!clearing && <Eraser aria-hidden="true" className="size-4" />}
              Clear Cart <span className="sr-only">{name}</span>
            </Button>
          )}
          {manage && (
            <Button
              variant="ghost"
              size="sm"
              className="text-danger-700 hover:bg-danger-50 hover:text-danger-800"
              loading={ending}
              onClick={() => onEnd(cart)}
            >
              {!ending && <Power aria-hidden="true" className="size-4" />}
              {END_SESSION_LABEL} <span className="sr-only">{name}</span>
            </Button>
          )}
          <CollapseToggle open={open} panelId={panelId} name={name} onToggle={onToggle} />
        </div>
      </div>
      {deadline && active && (
        <div className="px-4 pb-4 sm:px-5">
          <DeadlineNotice
            deadline={deadline}
            sessionId={cart.sessionId._id}
            role={role}
            creatorName={cart.sessionId.creator?.name}
          />
        </div>
      )}

      <div id={panelId} hidden={!open} className="border-t border-slate-100">
        {open && (
          <div className="grid gap-5 p-4 sm:p-5 lg:grid-cols-[minmax(0,1fr)_18rem]">
            <div className="flex min-w-0 flex-col gap-3">
              {empty ? (
                <div className="flex flex-col items-center gap-3 rounded-2xl bg-slate-50 px-4 py-8 text-center">
                  <ShoppingBag aria-hidden="true" className="size-8 text-slate-400" />
                  <p className="font-semibold text-ink">This cart is empty.</p>
                  {canAdd && (
                    <ButtonLink to="/products" variant="secondary" size="sm">
                      Browse products
                    </ButtonLink>
                  )}
                </div>
              ) : (
                <CartLinesTable
                  lines={cart.products}
                  lineStates={lineStates}
                  caption={`Items in ${name}`}
                  controls={{
                    canChange: (line) => canChangeLine(role, line, userId, changeable),
                    onChange: (line, change) => onChangeQuantity(cart, line, change),
                    onRemove: (line) => onRemoveLine(cart, line),
                    // Any line may be kept for a series' next session (set in the lobby).
                    stapleCartId: active ? cart._id : undefined,
                    acknowledgeCartId:
                      changeable && role && can(role, "cart.acknowledgePrice")
                        ? cart._id
                        : undefined,
                    noteCartId: changeable ? cart._id : undefined,
                    approveCartId: active && canApprove(cart, userId) ? cart._id : undefined,
                    approverId: userId ?? undefined,
                  }}
                />
              )}
              {canAdd && (
                <FreeLineForm
                  cartId={cart._id}
                  members={cart.sessionId.invitedUsers}
                  userId={userId}
                />
              )}
              {/* The shares below and the order summary add fees and tax to this figure. */}
              <CartTotal
                total={cart.totalPrice}
                itemCount={cart.itemCount}
                tone="primary"
                unsent={unsent}
                estimated={cart.products.some((l) => l.estimated)}
                pendingTotal={cart.pendingTotal}
                privateCount={cart.privateCount}
              />
              {canAdd && <BuyAgain cart={cart} />}
              <SplitPanel cart={cart} userId={userId} role={role} active={active} unsent={unsent} />
              {changeable && <LineSharing cart={cart} userId={userId} role={role} />}
              {changeable && <LineHiding cart={cart} userId={userId} role={role} />}
              {role === "viewer" && (
                <p className="text-sm text-slate-500">
                  You&apos;re a viewer here: you can follow the cart, but not change it.
                </p>
              )}
              {role === "participant" && !empty && (
                <p className="text-sm text-slate-500">
                  You can change the items you added; the creator manages the rest.
                </p>
              )}
            </div>
            <div className="flex min-w-0 flex-col gap-5">
              <OrderSummaryCard
                totalPrice={cart.totalPrice}
                unsent={unsent}
                sessionId={cart.sessionId?._id}
                sessionName={name}
              />
              {cart.sessionId?._id && can(role, "session.read") && (
                <ActivityFeed sessionId={cart.sessionId._id} compact className="px-1" />
              )}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
