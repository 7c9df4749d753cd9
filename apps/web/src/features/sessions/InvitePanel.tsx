import { useId, useState, type FormEvent } from "react";
import { toast } from "../../lib/toast.ts";
import { Inbox, Send } from "lucide-react";
import { EMAIL_MAX_LENGTH, type InviteRole } from "@cartner/contract";
import {
  Avatar,
  Button,
  InlineEmpty,
  InlineLoadError,
  InlineLoading,
  Input,
  Label,
  SelectField,
  TextField,
} from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useInviteMember } from "../../api/invites.ts";
import { useDecideJoinRequest, useJoinRequests } from "../../api/join-requests.ts";
import { AnswerButtons, type Answer } from "./session-parts.tsx";

export const INVITE_REQUIRED_MESSAGE = "Email or username is required";
export const INVITE_FAILED_MESSAGE = "Failed to send invite";

/** The creator's invite form and join-request list. */
export function InvitePanel({
  sessionId,
  sessionCode,
}: {
  sessionId: string;
  sessionCode: string;
}) {
  const headingId = useId();
  const requestsId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-6 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
    >
      <div>
        <h2 id={headingId} className="text-lg font-bold sm:text-xl">
          Invite people
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Invite by email or username, or share the session code and passcode.
        </p>
      </div>
      <InviteForm sessionCode={sessionCode} />
      <div className="flex flex-col gap-3 border-t border-slate-100 pt-5">
        <h3 id={requestsId} className="text-base font-bold">
          Pending Join Requests
        </h3>
        <JoinRequests sessionId={sessionId} sessionCode={sessionCode} labelledBy={requestsId} />
      </div>
    </section>
  );
}

function InviteForm({ sessionCode }: { sessionCode: string }) {
  const codeId = useId();
  const [emailOrUsername, setEmailOrUsername] = useState("");
  const [role, setRole] = useState<InviteRole>("participant");
  const [fieldError, setFieldError] = useState<string | undefined>();

  const invite = useInviteMember({
    onSuccess: (result) => {
      toast.success(result?.message || "Invite sent", { autoClose: 6000 });
      setEmailOrUsername("");
      setFieldError(undefined);
    },
    onError: (error) => {
      const message = errorMessage(error, INVITE_FAILED_MESSAGE);
      toast.error(message, { autoClose: 8000 });
      if (error instanceof ApiError) {
        const field = error.fields?.emailOrUsername;
        if (field) setFieldError(field);
        else if (error.status === 404 || error.status === 409 || error.status === 400) {
          setFieldError(message);
        }
      }
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = emailOrUsername.trim();
    if (value === "") {
      setFieldError(INVITE_REQUIRED_MESSAGE);
      return;
    }
    if (invite.isPending) return;
    setFieldError(undefined);
    invite.mutate({ sessionCode, emailOrUsername: value, role });
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label="Invite someone"
      className="flex flex-col gap-4"
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={codeId}>Session Code</Label>
        <Input
          id={codeId}
          readOnly
          value={sessionCode}
          className="bg-slate-50 font-mono tracking-wider"
        />
      </div>
      <TextField
        label="Email or Username"
        name="emailOrUsername"
        required
        autoComplete="off"
        spellCheck={false}
        maxLength={EMAIL_MAX_LENGTH}
        placeholder="friend@example.com"
        value={emailOrUsername}
        error={fieldError}
        onChange={(event) => {
          setEmailOrUsername(event.target.value);
          if (fieldError) setFieldError(undefined);
        }}
      />
      <SelectField
        label="Role"
        name="role"
        value={role}
        onChange={(event) => setRole(event.target.value as InviteRole)}
        hint="Participants add items; viewers only watch."
      >
        <option value="participant">Participant</option>
        <option value="viewer">Viewer</option>
      </SelectField>
      <Button type="submit" loading={invite.isPending}>
        {!invite.isPending && <Send aria-hidden="true" className="size-4" />}
        Send Invite
      </Button>
    </form>
  );
}

function JoinRequests({
  sessionId,
  sessionCode,
  labelledBy,
}: {
  sessionId: string;
  sessionCode: string;
  labelledBy: string;
}) {
  const requests = useJoinRequests(sessionCode, true);
  const [answering, setAnswering] = useState<{ userId: string; how: Answer } | null>(null);

  const decide = useDecideJoinRequest(sessionId, sessionCode, {
    onMutate: ({ request, how }) => setAnswering({ userId: request.userId, how }),
    onSuccess: (result, { how }) => {
      toast.success(
        result?.message || (how === "accept" ? "Request approved" : "Request rejected"),
        {
          autoClose: 6000,
        },
      );
    },
    onError: (error, { how }) => {
      toast.error(
        errorMessage(
          error,
          how === "accept" ? "Failed to approve request" : "Failed to reject request",
        ),
        { autoClose: 8000 },
      );
    },
    onSettled: () => setAnswering(null),
  });

  if (requests.isPending) {
    return <InlineLoading>Loading join requests…</InlineLoading>;
  }
  if (requests.isError && !requests.data) {
    return (
      <InlineLoadError
        message={errorMessage(requests.error, "Join requests could not be loaded.")}
        onRetry={() => void requests.refetch()}
        retrying={requests.isFetching}
      />
    );
  }
  const list = requests.data ?? [];
  if (list.length === 0) {
    return (
      <InlineEmpty icon={<Inbox aria-hidden="true" className="size-4" />}>
        No pending join requests.
      </InlineEmpty>
    );
  }
  return (
    <ul aria-labelledby={labelledBy} className="flex flex-col gap-3">
      {list.map((request) => {
        const busy = answering?.userId === request.userId ? answering.how : null;
        return (
          <li
            key={request.userId}
            className="flex flex-col gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70 ring-inset"
          >
            <div className="flex min-w-0 items-center gap-3">
              <Avatar
                src={request.avatar}
                seed={request.userId}
                name={request.name}
                className="size-10"
              />
              <div className="min-w-0">
                <p className="truncate font-semibold text-ink">{request.name}</p>
                <p className="truncate text-sm text-slate-600">{request.email}</p>
                {request.requestedAt ? (
                  <p className="text-xs text-slate-500">
                    Asked {formatDateTime(request.requestedAt)}
                  </p>
                ) : null}
              </div>
            </div>
            <AnswerButtons
              subject={request.name}
              busy={busy}
              grow
              onAnswer={(how) => decide.mutate({ request, how })}
            />
          </li>
        );
      })}
    </ul>
  );
}
