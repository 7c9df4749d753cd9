import { useState, type FormEvent } from "react";
import { ArrowRight } from "lucide-react";
import { PASSCODE_MAX_LENGTH, SESSION_NAME_MAX_LENGTH, SESSION_TYPES } from "@cartner/contract";
import { Button, SelectField, TextField } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import type { PendingSession, SessionParticipants, SessionType } from "../../lib/storage.ts";
import { ParticipantsField } from "./ParticipantsField.tsx";
import { currencyName } from "../../lib/format.ts";
import { parseBudget } from "./session-model.ts";

/** What the form hands over: the hero's fields, plus a budget on the sessions page. */
export type SessionFormValues = PendingSession & { budget?: number };

/** A sensible head count for each type, until the user picks one themselves. */
const suggestedParticipants: Record<SessionType, SessionParticipants> = {
  Couple: "2",
  Friends: "3+",
  Family: "3+",
  Solo: "1",
};

/** Builds the values to send: name and passcode trimmed, an empty passcode left out. */
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
  onSubmit: (values: SessionFormValues) => void;
  submitting?: boolean;
  initialValues?: Partial<PendingSession> | undefined;
  className?: string;
  /** Adds the optional Budget field (the sessions page). */
  withBudget?: boolean;
  submitLabel?: string;
}

/** The create-session fields shared by the landing hero and the sessions page. */
export function CreateSessionForm({
  onSubmit,
  submitting = false,
  initialValues,
  className,
  withBudget = false,
  submitLabel = "Start Session",
}: CreateSessionFormProps) {
  const [sessionName, setSessionName] = useState(initialValues?.sessionName ?? "");
  const [sessionType, setSessionType] = useState<SessionType | "">(
    initialValues?.sessionType ?? "",
  );
  const [chosenParticipants, setChosenParticipants] = useState<SessionParticipants | null>(
    initialValues?.participants ?? null,
  );
  const [passcode, setPasscode] = useState(initialValues?.passcode ?? "");
  const [budget, setBudget] = useState("");
  const [budgetError, setBudgetError] = useState<string | undefined>();

  const participants =
    chosenParticipants ?? (sessionType === "" ? "2" : suggestedParticipants[sessionType]);
  const ready = sessionName.trim() !== "" && sessionType !== "";

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || submitting) return;
    const values: SessionFormValues = toSessionValues({
      sessionName,
      sessionType,
      participants,
      passcode,
    });
    if (withBudget) {
      const parsed = parseBudget(budget);
      if (!parsed.ok) {
        setBudgetError(parsed.error);
        return;
      }
      if (parsed.value !== null) values.budget = parsed.value;
    }
    onSubmit(values);
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
        maxLength={SESSION_NAME_MAX_LENGTH}
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

      <ParticipantsField value={participants} onChange={setChosenParticipants} />

      <TextField
        label="Passcode"
        name="passcode"
        optional
        autoComplete="off"
        maxLength={PASSCODE_MAX_LENGTH}
        hint="Friends will need it to join your session."
        value={passcode}
        onChange={(event) => setPasscode(event.target.value)}
      />

      {withBudget && (
        <TextField
          label="Budget"
          name="budget"
          optional
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 150"
          hint={`In ${currencyName()}. We show how much you save against it.`}
          value={budget}
          error={budgetError}
          onChange={(event) => {
            setBudget(event.target.value);
            if (budgetError) setBudgetError(undefined);
          }}
        />
      )}

      <Button type="submit" size="lg" fullWidth disabled={!ready} loading={submitting}>
        {submitLabel}
        {!submitting && <ArrowRight aria-hidden="true" className="size-5" />}
      </Button>
    </form>
  );
}
