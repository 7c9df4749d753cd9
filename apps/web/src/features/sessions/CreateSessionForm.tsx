import { lazy, Suspense, useState, type FormEvent } from "react";
import { ArrowRight } from "lucide-react";
import {
  PASSCODE_MAX_LENGTH,
  PRESETS,
  SESSION_NAME_MAX_LENGTH,
  SESSION_TYPES,
} from "@cartner/contract";
import { Button, SelectField, TextField } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import type { PendingSession, SessionParticipants, SessionType } from "../../lib/storage.ts";
import { ParticipantsField } from "./ParticipantsField.tsx";
import { presetChoices, type PresetChoices } from "./preset-choices.ts";

// Shown once a type is chosen; loaded then, so the landing page's first load stays small.
const PresetFields = lazy(() =>
  import("./PresetFields.tsx").then((m) => ({ default: m.PresetFields })),
);
import { currencyName } from "../../lib/format.ts";
import { parseBudget } from "./session-model.ts";

/** What the form hands over: the hero's fields, plus a budget on the sessions page. */
export type SessionFormValues = PendingSession & { budget?: number };

/**
 * Builds the values to send: name and passcode trimmed, an empty passcode left out, and the
 * preset's choices the user changed (the others are the type's preset, on the server too).
 */
export function toSessionValues(
  input: {
    sessionName: string;
    sessionType: SessionType;
    participants: SessionParticipants;
    passcode: string;
  } & Partial<PresetChoices>,
): PendingSession {
  const values: PendingSession = {
    sessionName: input.sessionName.trim(),
    sessionType: input.sessionType,
    participants: input.participants,
    ...(input.splitMode ? { splitMode: input.splitMode } : {}),
    ...(input.fees ? { fees: input.fees } : {}),
    ...(input.checkoutBy ? { checkoutBy: input.checkoutBy } : {}),
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

  // The user's own choices; every other one is the chosen type's preset.
  const [chosen, setChosen] = useState<Partial<PresetChoices>>(() => {
    const { splitMode, fees, checkoutBy } = initialValues ?? {};
    return {
      ...(splitMode ? { splitMode } : {}),
      ...(fees ? { fees } : {}),
      ...(checkoutBy ? { checkoutBy } : {}),
    };
  });

  const participants =
    chosenParticipants ?? (sessionType === "" ? "2" : PRESETS[sessionType].participants);
  const choices = sessionType === "" ? null : { ...presetChoices(sessionType), ...chosen };
  const ready = sessionName.trim() !== "" && sessionType !== "";

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || submitting) return;
    const values: SessionFormValues = toSessionValues({
      sessionName,
      sessionType,
      participants,
      passcode,
      // Only the choices the user changed: the server fills in the rest from the same preset.
      ...chosen,
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

      {sessionType !== "" && choices && (
        <Suspense fallback={null}>
          <PresetFields
            type={sessionType}
            values={choices}
            onChange={(change) => setChosen((current) => ({ ...current, ...change }))}
          />
        </Suspense>
      )}

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
