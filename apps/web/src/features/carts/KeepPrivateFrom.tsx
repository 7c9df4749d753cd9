import { useId } from "react";
import { EyeOff } from "lucide-react";
import type { Member } from "@cartner/contract";
import { hideableMembers } from "./LineHiding.tsx";
import { MemberChecklist } from "./LineSharing.tsx";

interface KeepPrivateFromProps {
  /** The session's members; those the add can be hidden from are offered. */
  members: readonly Member[];
  /** Who adds (the signed-in user): never offered. */
  userId: string | null | undefined;
  picked: string[];
  onChange: (picked: string[]) => void;
}

/**
 * "Keep it private from…" on an add (a present): the members picked never see the line, not
 * even its adding (the server writes it hidden in the same call, decision 049). A disclosure
 * with a checkbox per member it can be hidden from (not the creator, not oneself: the cart
 * line's "Keep items private" rule, `hideableMembers()`); nothing when there is no one.
 */
export function KeepPrivateFrom({ members, userId, picked, onChange }: KeepPrivateFromProps) {
  const legendId = useId();
  const offered = hideableMembers(members, userId);
  if (offered.length === 0) return null;
  const toggle = (id: string) =>
    onChange(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  return (
    <details className="rounded-xl bg-white/60 px-3 py-2 ring-1 ring-slate-900/5">
      <summary className="cursor-pointer text-sm font-semibold text-ink">
        {/* Inline, not a flex box: the label wraps beside the disclosure's marker at 360 px. */}
        <span>
          <EyeOff
            aria-hidden="true"
            className="mr-2 inline size-4 align-[-0.125em] text-primary-700"
          />
          Keep it private from…
          {picked.length > 0 && (
            <span className="font-normal whitespace-nowrap text-slate-500">
              {" "}
              ({picked.length} picked)
            </span>
          )}
        </span>
      </summary>
      <fieldset aria-labelledby={legendId} className="mt-2 flex flex-col gap-2">
        <legend id={legendId} className="text-xs text-slate-600">
          They won't see it or hear of it; its cost still counts in the total.
        </legend>
        <MemberChecklist members={offered} picked={picked} onToggle={toggle} />
      </fieldset>
    </details>
  );
}
