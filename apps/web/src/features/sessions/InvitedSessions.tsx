import { useEffect, useState } from "react";
import { useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { Mail } from "lucide-react";
import { Avatar, InlineEmpty, InlineLoadError, InlineLoading } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import { roleLabels } from "./session-model.ts";
import { useAcceptInvite, useMyInvites, useRejectInvite } from "../../api/invites.ts";
import { AnswerButtons, type Answer } from "./session-parts.tsx";

export const INVITES_LOADING = "Loading invites...";
export const NO_INVITES = "No invites yet.";
export const INVITES_LOAD_FAILED = "Failed to load invites";
export const INVITE_ACCEPTED = "Invite accepted! Redirecting...";
export const INVITE_REJECTED = "Invite rejected";

/** 'Invited Sessions': invites to answer, with Accept and Reject. */
export function InvitedSessions({ headingId }: { headingId: string }) {
  const navigate = useNavigate();
  const invites = useMyInvites();
  // Which invite is being answered, and how.
  const [answering, setAnswering] = useState<{ code: string; how: Answer } | null>(null);

  useEffect(() => {
    if (invites.isError) toast.error(INVITES_LOAD_FAILED, { toastId: "invites-load-failed" });
  }, [invites.isError]);

  const accept = useAcceptInvite({
    onMutate: (invite) => setAnswering({ code: invite.sessionCode, how: "accept" }),
    onSuccess: (result) => {
      toast.success(INVITE_ACCEPTED, { autoClose: 6000 });
      navigate(`/session/${encodeURIComponent(result.sessionId)}`);
    },
    onError: (error) => {
      toast.error(`Failed to accept invite: ${errorMessage(error, error.message)}`, {
        autoClose: 8000,
      });
    },
    onSettled: () => setAnswering(null),
  });

  const reject = useRejectInvite({
    onMutate: (invite) => setAnswering({ code: invite.sessionCode, how: "reject" }),
    onSuccess: () => {
      toast.success(INVITE_REJECTED, { autoClose: 6000 });
    },
    onError: (error) => {
      toast.error(`Failed to reject invite: ${errorMessage(error, error.message)}`, {
        autoClose: 8000,
      });
    },
    onSettled: () => setAnswering(null),
  });

  if (invites.isPending) {
    return <InlineLoading className="py-4">{INVITES_LOADING}</InlineLoading>;
  }

  if (invites.isError && !invites.data) {
    return (
      <InlineLoadError
        className="py-2"
        message="Your invites could not be loaded."
        onRetry={() => void invites.refetch()}
        retrying={invites.isFetching}
      />
    );
  }

  const list = invites.data ?? [];
  if (list.length === 0) {
    return (
      <InlineEmpty className="py-4" icon={<Mail aria-hidden="true" className="size-4" />}>
        {NO_INVITES}
      </InlineEmpty>
    );
  }

  return (
    <ul aria-labelledby={headingId} className="flex flex-col divide-y divide-slate-100">
      {list.map((invite) => {
        const busy = answering?.code === invite.sessionCode ? answering.how : null;
        return (
          <li
            key={invite._id}
            className="flex flex-col gap-3 py-3 first:pt-1 last:pb-0 sm:flex-row sm:items-center"
          >
            <div className="flex min-w-0 flex-1 items-center gap-3">
              <Avatar
                src={invite.invitedBy.avatar}
                seed={invite.invitedBy._id}
                name={invite.invitedBy.name}
                className="size-10"
              />
              <div className="min-w-0">
                <p className="line-clamp-2 font-semibold break-words text-ink">
                  {invite.sessionName}
                </p>
                <p className="text-sm text-slate-600">
                  {invite.invitedBy.name} invited you as {roleLabels[invite.role].toLowerCase()}
                  {invite.createdAt ? ` · ${formatDate(invite.createdAt)}` : ""}
                </p>
              </div>
            </div>
            <AnswerButtons
              subject={invite.sessionName}
              busy={busy}
              onAnswer={(how) => (how === "accept" ? accept : reject).mutate(invite)}
            />
          </li>
        );
      })}
    </ul>
  );
}
