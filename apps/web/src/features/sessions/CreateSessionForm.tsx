import { useId, useState, type FormEvent } from "react";
import { ArrowRight } from "lucide-react";
import { SESSION_PARTICIPANT_OPTIONS, SESSION_TYPES } from "@cartner/contract";
import { Button, SelectField, TextField } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import type { PendingSession, SessionParticipants, SessionType } from "../../lib/storage.ts";

/** A sensible head count for each type, until the user picks one themselves. */
const suggestedParticipants: Record<SessionType, SessionParticipants> = {
  Couple: "2",
  Friends: "3+",
  Family: "3+",
  Solo: "1",
};

/** Builds the values to send: name and passcode trimmed, an empty passcode left out (SPEC 5). */
export function toSessionValues(input: {
  sessionName: string;
  sessionType: SessionType;
  participants: SessionParticipants;
  passcode: string;
}): PendingSession {
  const values: PendingSession = {
    sessionName: input.sessionName.trim(),
    sessionType: input.sessionType,
    participants: input.participants,
  };
  const passcode = input.passcode.trim();
  if (passcode !== "") values.passcode = passcode;
  return values;
}

interface CreateSessionFormProps {
  onSubmit: (values: PendingSession) => void;
  submitting?: boolean;
  initialValues?: Partial<PendingSession> | undefined;
  className?: string;
}

/** The create-session fields shared by the landing hero and the sessions page. */
export function CreateSessionForm({
  onSubmit,
  submitting = false,
  initialValues,
  className,
}: CreateSessionFormProps) {
  const id = useId();
  const [sessionName, setSessionName] = useState(initialValues?.sessionName ?? "");
  const [sessionType, setSessionType] = useState<SessionType | "">(
    initialValues?.sessionType ?? "",
  );
  const [chosenParticipants, setChosenParticipants] = useState<SessionParticipants | null>(
    initialValues?.participants ?? null,
  );
  const [passcode, setPasscode] = useState(initialValues?.passcode ?? "");

  const participants =
    chosenParticipants ?? (sessionType === "" ? "2" : suggestedParticipants[sessionType]);
  const ready = sessionName.trim() !== "" && sessionType !== "";

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || submitting) return;
    onSubmit(toSessionValues({ sessionName, sessionType, participants, passcode }));
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-label="Create a session"
      className={cn("flex flex-col gap-5", className)}
    >
      <TextField
        label="Session Name"
        name="sessionName"
        required
        autoComplete="off"
        placeholder="e.g. Weekend groceries"
        value={sessionName}
        onChange={(event) => setSessionName(event.target.value)}
      />
      <SelectField
        label="Session Type"
        name="sessionType"
        required
        value={sessionType}
        onChange={(event) => setSessionType(event.target.value as SessionType | "")}
      >
        <option value="" disabled>
          Choose a type
        </option>
        {SESSION_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </SelectField>

      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">Participants</legend>
        <div className="mt-1.5 grid grid-cols-3 gap-2">
          {SESSION_PARTICIPANT_OPTIONS.map((option) => (
            <label key={option} className="relative">
              <input
                type="radio"
                name={`${id}-participants`}
                value={option}
                checked={participants === option}
                onChange={() => setChosenParticipants(option)}
                className="peer sr-only"
              />
              <span
                className={cn(
                  "flex h-11 cursor-pointer items-center justify-center rounded-xl border border-slate-300 bg-white",
                  "text-[0.9375rem] font-semibold text-slate-700 transition-colors hover:border-slate-400",
                  "peer-checked:border-primary-600 peer-checked:bg-primary-50 peer-checked:text-primary-800",
                  "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary-500",
                )}
              >
                {option}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <TextField
        label="Passcode"
        name="passcode"
        optional
        autoComplete="off"
        hint="Friends will need it to join your session."
        value={passcode}
        onChange={(event) => setPasscode(event.target.value)}
      />

      <Button type="submit" size="lg" fullWidth disabled={!ready} loading={submitting}>
        Start Session
        {!submitting && <ArrowRight aria-hidden="true" className="size-5" />}
      </Button>
    </form>
  );
}
