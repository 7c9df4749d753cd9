import { useId, useState } from "react";
import { EyeOff } from "lucide-react";
import { can, type Cart, type CartLine, type Member, type Role } from "@cartner/contract";
import { useHideLine } from "../../api/carts.ts";
import { Button } from "../../components/ui/index.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { MemberChecklist } from "./LineSharing.tsx";

interface LineHidingProps {
  cart: Cart;
  userId: string | null | undefined;
  role: Role | null;
}

/**
 * "Hide from…": the adder of a line (or the creator) keeps it private from chosen members (a
 * present): for them it is not in the cart, only counted in its total. Never from the creator
 * nor from the line's adder; none picked shows it to everyone again.
 */
export function LineHiding({ cart, userId, role }: LineHidingProps) {
  const headingId = useId();
  const lines = cart.products.filter(
    (line) =>
      can(role, "cart.seePrivate") || (line.addedBy._id === userId && can(role, "cart.hideLine")),
  );
  if (!lines.some((line) => hideable(cart, line).length > 0)) return null;
  return (
    <details className="rounded-2xl bg-slate-50 p-4" data-testid="line-hiding">
      <summary className="cursor-pointer font-display text-base font-bold text-ink">
        <span id={headingId} className="inline-flex items-center gap-2">
          <EyeOff aria-hidden="true" className="size-4 text-primary-700" />
          Keep items private
        </span>
      </summary>
      <ul aria-labelledby={headingId} className="mt-3 flex flex-col gap-4">
        {lines.map((line) => (
          <li key={line._id}>
            <LineHiddenFrom cart={cart} line={line} />
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The members a line added by `adderId` can be hidden from: not the creator (who sees every
 * private line), not its adder, no join request. The server checks the same (decision 049).
 */
export function hideableMembers(members: readonly Member[], adderId: string | null | undefined) {
  return members.filter(
    (m) => m.role !== "pending" && !can(m.role, "cart.seePrivate") && m.userId !== adderId,
  );
}

/** The members a line can be hidden from. */
function hideable(cart: Cart, line: CartLine) {
  return hideableMembers(cart.sessionId.invitedUsers, line.addedBy._id);
}

function LineHiddenFrom({ cart, line }: { cart: Cart; line: CartLine }) {
  const groupId = useId();
  const members = hideable(cart, line);
  const [picked, setPicked] = useState<string[]>(line.hiddenFrom);
  const save = useHideLine(cart._id, line._id, () => picked, {
    onSuccess: () => {
      successToast(
        picked.length === 0
          ? `${line.productId.name} is seen by everyone again.`
          : `${line.productId.name} is hidden from ${picked.length}.`,
      );
    },
    onError: (error) => failureToast("Could not hide that item", error),
  });
  if (members.length === 0) return null;
  const toggle = (id: string) =>
    setPicked((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  return (
    <fieldset aria-labelledby={groupId} className="flex flex-col gap-2">
      <legend id={groupId} className="text-sm font-semibold text-ink">
        {line.productId.name}
        <span className="font-normal text-slate-500">
          {" "}
          · {line.hiddenFrom.length === 0 ? "seen by everyone" : "private"}
        </span>
      </legend>
      <p className="text-xs text-slate-500">Hide from…</p>
      <MemberChecklist members={members} picked={picked} onToggle={toggle} />
      <div>
        <Button
          size="sm"
          variant="secondary"
          loading={save.isPending}
          onClick={() => save.mutate()}
        >
          Save <span className="sr-only">who {line.productId.name} is hidden from</span>
        </Button>
      </div>
    </fieldset>
  );
}
