import { useState } from "react";
import { toast } from "../../lib/toast.ts";
import { Crown, RefreshCw, UserMinus } from "lucide-react";
import {
  linesCarriedAlone,
  memberHasLinesMessage,
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
