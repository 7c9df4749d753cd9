import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "../../lib/toast.ts";
import { Crown, RefreshCw, UserMinus } from "lucide-react";
import type { Member, Session } from "@cartner/contract";
import { sessionKeys, sessionsApi } from "../../api/sessions-api.ts";
import { Button, ConfirmDialog, NativeSelect } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";

type Change =
  | { kind: "role"; member: Member; role: "participant" | "viewer" }
  | { kind: "remove"; member: Member }
  | { kind: "transfer"; member: Member }
  | { kind: "rotate" };

/** The creator's member changes; each answer is the new session, shown at once. */
function useMemberChange(session: Session) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) => {
      switch (change.kind) {
        case "role":
          return sessionsApi.updateMember(session._id, change.member.userId, { role: change.role });
        case "remove":
          return sessionsApi.removeMember(session._id, change.member.userId);
        case "transfer":
          return sessionsApi.transfer(session._id, change.member.userId);
        case "rotate":
          return sessionsApi.rotateCode(session._id);
      }
    },
    onSuccess: (body, change) => {
      client.setQueryData(sessionKeys.detail(session._id), body.session);
      void client.invalidateQueries({ queryKey: sessionKeys.all });
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
  const change = useMemberChange(session);
  const [confirming, setConfirming] = useState<"remove" | "transfer" | null>(null);
  if (member.role !== "participant" && member.role !== "viewer") return null;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <NativeSelect
        aria-label={`Role of ${member.name}`}
        value={member.role}
        disabled={change.isPending}
        onChange={(event) =>
          change.mutate({
            kind: "role",
            member,
            role: event.target.value === "viewer" ? "viewer" : "participant",
          })
        }
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
        open={confirming !== null}
        tone={confirming === "transfer" ? "primary" : "danger"}
        title={
          confirming === "transfer"
            ? `Hand the session over to ${member.name}?`
            : `Remove ${member.name}?`
        }
        description={
          confirming === "transfer"
            ? `${member.name} becomes the creator: they manage members, the split and the checkout. You stay as a participant and may leave.`
            : `${member.name} loses access to this session and its cart at once. The items they added stay in the cart.`
        }
        confirmLabel={confirming === "transfer" ? "Hand over" : "Remove"}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const kind = confirming;
          setConfirming(null);
          if (kind) change.mutate({ kind, member });
        }}
      />
    </div>
  );
}

/** A new session code (and passcode): for a code that got out. Members keep their access. */
export function RotateCodeButton({ session }: { session: Session }) {
  const change = useMemberChange(session);
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
        description={`The current code${session.hasPasscode ? " and passcode" : ""} stop working at once; everyone already in the session stays. Invite links keep working.`}
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
