import { useState, type FormEvent } from "react";
import { toast } from "../../lib/toast.ts";
import { LogIn } from "lucide-react";
import { PASSCODE_MAX_LENGTH } from "@cartner/contract";
import { Button, TextField } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useJoinByCode } from "../../api/join-requests.ts";

export const JOIN_SENT_MESSAGE = "Join request sent";
export const JOIN_FAILED_MESSAGE = "Failed to join session";

/** Join by Session Code + Passcode: both required, both trimmed. */
export function JoinSessionForm() {
  const [sessionCode, setSessionCode] = useState("");
  const [passcode, setPasscode] = useState("");
  const code = sessionCode.trim();
  const pass = passcode.trim();
  const ready = code !== "" && pass !== "";

  const join = useJoinByCode({
    onSuccess: () => {
      toast.success(JOIN_SENT_MESSAGE, { autoClose: 6000 });
      setSessionCode("");
      setPasscode("");
    },
    onError: (error) => {
      toast.error(errorMessage(error, JOIN_FAILED_MESSAGE), { autoClose: 8000 });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || join.isPending) return;
    join.mutate({ sessionCode: code, passcode: pass });
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label="Join a session"
      className="flex flex-col gap-4"
    >
      <TextField
        label="Session Code"
        name="sessionCode"
        required
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={32}
        placeholder="e.g. K7QM2XWP"
        value={sessionCode}
        onChange={(event) => setSessionCode(event.target.value)}
        className="[&_input]:font-mono [&_input]:tracking-wider"
      />
      <TextField
        label="Passcode"
        name="passcode"
        required
        autoComplete="off"
        spellCheck={false}
        maxLength={PASSCODE_MAX_LENGTH}
        value={passcode}
        onChange={(event) => setPasscode(event.target.value)}
      />
      <p className="text-sm text-slate-500">
        The session&apos;s creator approves your request before you can shop together.
      </p>
      <Button type="submit" fullWidth disabled={!ready} loading={join.isPending}>
        {!join.isPending && <LogIn aria-hidden="true" className="size-4" />}
        Join Session
      </Button>
    </form>
  );
}
