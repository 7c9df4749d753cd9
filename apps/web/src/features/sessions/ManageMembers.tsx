import { useState } from "react";
import { toast } from "../../lib/toast.ts";
import { Crown, RefreshCw, UserMinus } from "lucide-react";
import {
  CHILD_WEIGHT,
  carriesShare,
  linesCarriedAlone,
  memberHasLinesMessage,
  type BudgetMode,
  type Member,
  type Session,
} from "@cartner/contract";
import { useReadSessionCart } from "../../api/carts.ts";
import { useMemberChange } from "../../api/members.ts";
import { Button, ConfirmDialog, NativeSelect } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useNavigate } from "../../lib/router.tsx";
import { LeavingLinesDialog } from "./LeavingLinesDialog.tsx";

/** The creator's member changes, each with a toast that says what happened. */
function useMemberChangeToasts(session: Session) {
  return useMemberChange(session, {
    onSuccess: (body, change) => {
      const done = {
        role: () =>
          change.kind === "role" &&
          `${change.member.name} is now a ${change.role === "viewer" ? "viewer" : "participant"}.`,
        remove: () => change.kind === "remove" && `${change.member.name} was removed.`,
        transfer: () =>
          change.kind === "transfer" &&
          `${change.member.name} now runs the session. You are a participant and may leave.`,
        rotate: () =>
          `New session code: ${body.session.sessionCode}. The old code and passcode no longer work.`,
        child: () =>
          change.kind === "child" &&
          (change.child
            ? `${change.member.name} is marked as a child.`
            : `${change.member.name} is no longer marked as a child.`),
        budgetMode: () =>
          change.kind === "budgetMode" &&
          `${change.member.name}'s budget: ${change.budgetMode === "ask" ? "ask first" : "warn"}.`,
      }[change.kind]();
      if (done) toast.success(done, { autoClose: 8000 });
    },
    onError: (error) => {
      toast.error(errorMessage(error, "That did not work. Try again."), { autoClose: 8000 });
    },
  });
}

/** Role, remove and hand over, for one member, on the creator's lobby. */
export function MemberControls({ session, member }: { session: Session; member: Member }) {
  const change = useMemberChangeToasts(session);
  const readCart = useReadSessionCart(session._id);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<"remove" | "transfer" | null>(null);
  const [checking, setChecking] = useState(false);
  /** Lines the member carries alone: viewers never pay, so these must go or be shared first. */
  const [carried, setCarried] = useState(0);

  async function makeViewer() {
    setChecking(true);
    try {
      const { cart } = await readCart();
      const lines = cart.products.map((l) => ({
        addedBy: l.addedBy._id,
        sharedWith: l.sharedWith.map((u) => u._id),
      }));
      const count = linesCarriedAlone(lines, cart.sessionId.invitedUsers, member.userId);
      if (count > 0) {
        setCarried(count);
        return;
      }
    } catch {
      // The cart could not be read (offline): the server applies the same rule and says why.
    } finally {
      setChecking(false);
    }
    change.mutate({ kind: "role", member, role: "viewer" });
  }

  if (member.role !== "participant" && member.role !== "viewer") return null;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <NativeSelect
        aria-label={`Role of ${member.name}`}
        value={member.role}
        disabled={change.isPending || checking}
        aria-busy={checking || change.isPending}
        onChange={(event) => {
          if (event.target.value === "viewer") void makeViewer();
          else change.mutate({ kind: "role", member, role: "participant" });
        }}
        className="h-8 w-auto py-0 text-sm"
      >
        <option value="participant">Participant</option>
        <option value="viewer">Viewer</option>
      </NativeSelect>
      <NativeSelect
        aria-label={`Budget of ${member.name}`}
        value={member.budgetMode}
        disabled={change.isPending}
        onChange={(event) =>
          change.mutate({
            kind: "budgetMode",
            member,
            budgetMode: event.target.value as BudgetMode,
          })
        }
        className="h-8 w-auto py-0 text-sm"
      >
        <option value="warn">Budget: warn</option>
        <option value="ask">Budget: ask first</option>
      </NativeSelect>
      <ChildMark session={session} member={member} change={change} />
      {member.role === "participant" && (
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Make ${member.name} the creator`}
          onClick={() => setConfirming("transfer")}
        >
          <Crown aria-hidden="true" className="size-4" />
          Make creator
        </Button>
      )}
      <Button
        size="sm"
        variant="secondary"
        aria-label={`Remove ${member.name}`}
        onClick={() => setConfirming("remove")}
      >
        <UserMinus aria-hidden="true" className="size-4" />
        Remove
      </Button>
      <ConfirmDialog
        open={confirming === "transfer"}
        tone="primary"
        title={`Hand the session over to ${member.name}?`}
        description={`${member.name} becomes the creator: they manage members, the split and the checkout. You stay as a participant and may leave.`}
        confirmLabel="Hand over"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          setConfirming(null);
          change.mutate({ kind: "transfer", member });
        }}
      />
      <LeavingLinesDialog
        open={confirming === "remove"}
        sessionId={session._id}
        leaver={member}
        self={false}
        members={session.invitedUsers}
        title={`Remove ${member.name}?`}
        description={`${member.name} loses access to this session and its cart at once.`}
        confirmLabel="Remove"
        onCancel={() => setConfirming(null)}
        onConfirm={(lines) => {
          setConfirming(null);
          change.mutate({ kind: "remove", member, lines });
        }}
      />
      <ConfirmDialog
        open={carried > 0}
        tone="primary"
        title={`${member.name} still pays for items in the cart`}
        description={`${memberHasLinesMessage(member.name, carried)} Viewers never pay for anything.`}
        confirmLabel="Open the cart"
        cancelLabel={`Keep ${member.name} a participant`}
        onCancel={() => setCarried(0)}
        onConfirm={() => {
          setCarried(0);
          navigate(`/cart/${encodeURIComponent(session._id)}`);
        }}
      />
    </div>
  );
}

/**
 * The child mark. Marking offers, each ticked and each the creator's to untick: weight
 * CHILD_WEIGHT (only where the split is by weights, and for a member who pays) and an "ask
 * first" budget. Unmarking changes only the mark.
 */
export function ChildMark({
  session,
  member,
  change,
}: {
  session: Session;
  member: Member;
  change: ReturnType<typeof useMemberChangeToasts>;
}) {
  const [offering, setOffering] = useState(false);
  const weighs = session.splitPolicy.mode === "weights" && carriesShare(member.role);
  const [takeWeight, setTakeWeight] = useState(true);
  const [takeAsk, setTakeAsk] = useState(true);
  if (!offering) {
    return member.child ? (
      <Button
        size="sm"
        variant="secondary"
        aria-label={`${member.name} is not a child`}
        loading={change.isPending}
        onClick={() => change.mutate({ kind: "child", member, child: false })}
      >
        Not a child
      </Button>
    ) : (
      <Button
        size="sm"
        variant="secondary"
        aria-label={`Mark ${member.name} as a child`}
        onClick={() => {
          setTakeWeight(true);
          setTakeAsk(true);
          setOffering(true);
        }}
      >
        Child…
      </Button>
    );
  }
  return (
    <fieldset className="flex w-full flex-col gap-2 rounded-xl border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">
        Mark {member.name} as a child
      </legend>
      {weighs && (
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4"
            checked={takeWeight}
            onChange={(event) => setTakeWeight(event.target.checked)}
          />
          Weight {CHILD_WEIGHT} (a full share is 100)
        </label>
      )}
      <label className="inline-flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="size-4"
          checked={takeAsk}
          onChange={(event) => setTakeAsk(event.target.checked)}
        />
        Budget: ask first
      </label>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          loading={change.isPending}
          onClick={() => {
            setOffering(false);
            change.mutate({
              kind: "child",
              member,
              child: true,
              ...(takeAsk ? { budgetMode: "ask" as const } : {}),
              ...(weighs && takeWeight ? { weight: CHILD_WEIGHT } : {}),
            });
          }}
        >
          Mark as child
        </Button>
        <Button size="sm" variant="secondary" onClick={() => setOffering(false)}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}

/** A new session code (and passcode): for a code that got out. Members keep their access. */
export function RotateCodeButton({ session }: { session: Session }) {
  const change = useMemberChangeToasts(session);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        loading={change.isPending}
        onClick={() => setConfirming(true)}
      >
        {!change.isPending && <RefreshCw aria-hidden="true" className="size-4" />}
        New code{session.hasPasscode ? " and passcode" : ""}
      </Button>
      <ConfirmDialog
        open={confirming}
        tone="primary"
        title="Make a new session code?"
        description={`The current ${session.hasPasscode ? "code and passcode stop" : "code stops"} working at once; everyone already in the session stays. Invite links keep working.`}
        confirmLabel="Make a new code"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          change.mutate({ kind: "rotate" });
        }}
      />
    </>
  );
}
