import { useId, useState } from "react";
import { Users } from "lucide-react";
import { can, carriesShare, type Cart, type CartLine, type Role } from "@cartner/contract";
import { useShareLine } from "../../api/carts.ts";
import { Avatar, Button } from "../../components/ui/index.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";

interface LineSharingProps {
  cart: Cart;
  userId: string | null | undefined;
  role: Role | null;
}

/**
 * "Shared by": the adder of a line (or the creator) picks which paying members share it in equal
 * parts; none picked gives the line back to the session's split policy.
 */
export function LineSharing({ cart, userId, role }: LineSharingProps) {
  const headingId = useId();
  const payers = cart.sessionId.invitedUsers.filter((m) => carriesShare(m.role));
  const lines = cart.products.filter(
    (line) =>
      can(role, "cart.changeAnyLine") ||
      (line.addedBy._id === userId && can(role, "cart.changeOwnLine")),
  );
  if (lines.length === 0 || payers.length < 2) return null;
  return (
    <details className="rounded-2xl bg-slate-50 p-4" data-testid="line-sharing">
      <summary className="cursor-pointer font-display text-base font-bold text-ink">
        <span id={headingId} className="inline-flex items-center gap-2">
          <Users aria-hidden="true" className="size-4 text-primary-700" />
          Share lines with others
        </span>
      </summary>
      <ul aria-labelledby={headingId} className="mt-3 flex flex-col gap-4">
        {lines.map((line) => (
          <li key={line._id}>
            <LineSharers cart={cart} line={line} payers={payers} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function LineSharers({
  cart,
  line,
  payers,
}: {
  cart: Cart;
  line: CartLine;
  payers: Cart["sessionId"]["invitedUsers"];
}) {
  const groupId = useId();
  const [picked, setPicked] = useState<string[]>(line.sharedWith.map((u) => u._id));
  const save = useShareLine(cart._id, line._id, () => picked, {
    onSuccess: () => {
      successToast(
        picked.length === 0
          ? `${line.productId.name} follows the session's split again.`
          : `${line.productId.name} is now shared by ${picked.length}.`,
      );
    },
    onError: (error) => failureToast("Could not share that line", error),
  });
  const toggle = (id: string) =>
    setPicked((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  return (
    <fieldset aria-labelledby={groupId} className="flex flex-col gap-2">
      <legend id={groupId} className="text-sm font-semibold text-ink">
        {line.productId.name}
        <span className="font-normal text-slate-500">
          {" "}
          ·{" "}
          {line.sharedWith.length === 0
            ? "the session's split"
            : `shared by ${line.sharedWith.map((u) => u.name).join(", ")}`}
        </span>
      </legend>
      <MemberChecklist members={payers} picked={picked} onToggle={toggle} />
      <div>
        <Button
          size="sm"
          variant="secondary"
          loading={save.isPending}
          onClick={() => save.mutate()}
        >
          Save sharing <span className="sr-only">of {line.productId.name}</span>
        </Button>
      </div>
    </fieldset>
  );
}

/** Members as checkboxes with their avatars: whom a line is shared with, or hidden from. */
export function MemberChecklist({
  members,
  picked,
  onToggle,
}: {
  members: { userId: string; name: string; avatar: string }[];
  picked: string[];
  onToggle: (userId: string) => void;
}) {
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-2">
      {members.map((member) => (
        <label key={member.userId} className="inline-flex items-center gap-2 text-sm text-ink">
          <input
            type="checkbox"
            className="size-4 accent-primary-600"
            checked={picked.includes(member.userId)}
            onChange={() => onToggle(member.userId)}
          />
          <Avatar
            src={member.avatar}
            seed={member.userId}
            name={member.name}
            className="size-6 ring-1"
          />
          {member.name}
        </label>
      ))}
    </div>
  );
}
