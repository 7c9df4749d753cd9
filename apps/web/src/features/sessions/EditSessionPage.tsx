import { useState, type FormEvent } from "react";
import { useNavigate, useParams } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { ArrowLeft, Lock, Save } from "lucide-react";
import {
  PASSCODE_MAX_LENGTH,
  PRESETS,
  SESSION_NAME_MAX_LENGTH,
  SESSION_TYPES,
  type Session,
  type UpdateSessionBody,
} from "@cartner/contract";
import {
  Button,
  ButtonLink,
  FormActions,
  Card,
  CardBody,
  Container,
  FormAlert,
  LoadError,
  PageSpinner,
  SelectField,
  TextField,
} from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import type { SessionParticipants, SessionType } from "../../lib/storage.ts";
import { ParticipantsField } from "./ParticipantsField.tsx";
import { PresetFields } from "./PresetFields.tsx";
import { presetChoices, type PresetChoices } from "./preset-choices.ts";
import { roleIn } from "../../shared/roles.ts";
import { currencyName } from "../../lib/format.ts";
import { parseBudget } from "./session-model.ts";
import { useUpdateSession } from "../../api/sessions.ts";
import { isNotFound } from "../../lib/api.ts";
import { useSessionDetail } from "../../api/sessions.ts";
import { SessionNotFound } from "./SessionNotFound.tsx";

export const ONLY_CREATOR_MESSAGE = "Only the session creator can edit this session.";
export const UPDATE_FAILED_MESSAGE = "Failed to update session";

export interface EditValues extends PresetChoices {
  sessionName: string;
  sessionType: SessionType;
  participants: SessionParticipants;
  passcode: string;
  budget: string;
}

export function initialEditValues(session: Session): EditValues {
  return {
    sessionName: session.sessionName,
    sessionType: session.sessionType,
    participants: session.participants,
    passcode: session.passcode ?? "",
    budget: session.budget === null ? "" : String(session.budget),
    splitMode: session.splitPolicy.mode,
    fees: session.splitPolicy.fees,
    checkoutBy: session.checkoutBy,
  };
}

/**
 * The form after the type changes to `type`: the preset's choices, except those the user changed
 * in this form already (theirs win, as they do on the server).
 */
export function retyped(session: Session, values: EditValues, type: SessionType): EditValues {
  const before = initialEditValues(session);
  const preset = { ...presetChoices(type), participants: PRESETS[type].participants };
  const next = { ...values, sessionType: type };
  for (const key of ["participants", "splitMode", "fees", "checkoutBy"] as const) {
    if (values[key] === before[key]) Object.assign(next, { [key]: preset[key] });
  }
  return next;
}

/**
 * The PATCH body: only the fields that changed. An emptied passcode or budget is sent as null
 * (removes it). Returns the budget error instead when the budget is not a valid amount.
 */
export function changedFields(
  session: Session,
  values: EditValues,
): { body: UpdateSessionBody } | { budgetError: string } {
  const body: UpdateSessionBody = {};
  const name = values.sessionName.trim();
  if (name !== session.sessionName) body.sessionName = name;
  const retype = values.sessionType !== session.sessionType;
  if (retype) body.sessionType = values.sessionType;
  // A new type: every choice is sent as the form shows it, so none falls to the server's preset
  // unseen (a choice kept as it was would otherwise take the new type's).
  if (retype || values.participants !== session.participants) {
    body.participants = values.participants;
  }
  if (retype || values.splitMode !== session.splitPolicy.mode) body.splitMode = values.splitMode;
  if (retype || values.fees !== session.splitPolicy.fees) body.fees = values.fees;
  if (retype || values.checkoutBy !== session.checkoutBy) body.checkoutBy = values.checkoutBy;
  const passcode = values.passcode.trim();
  if (passcode !== (session.passcode ?? "")) body.passcode = passcode === "" ? null : passcode;
  const budget = parseBudget(values.budget);
  if (!budget.ok) return { budgetError: budget.error };
  if (budget.value !== session.budget) body.budget = budget.value;
  return { body };
}

/**
 * /session/edit/:id: the creator renames, retypes (the new type's preset shown before saving),
 * changes the split, fees and who checks out, re-budgets or changes the passcode.
 */
export function EditSessionPage() {
  const { id = "" } = useParams();
  const { user } = useAuth();
  const query = useSessionDetail(id);

  if (query.isPending) return <PageSpinner label="Loading session…" />;
  if (query.isError && !query.data) {
    if (isNotFound(query.error)) return <SessionNotFound />;
    return (
      <Container className="py-10">
        <title>Edit Session — Cartner</title>
        <LoadError
          title="We couldn't load this session."
          message={errorMessage(query.error, "Check your connection and try again.")}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </Container>
    );
  }
  const session = query.data;
  const lobby = `/session/${encodeURIComponent(session._id)}`;

  return (
    <Container className="py-6 sm:py-10">
      <title>{`Edit ${session.sessionName} — Cartner`}</title>
      <Card className="mx-auto max-w-xl">
        <CardBody className="flex flex-col gap-6">
          <div>
            <p className="text-sm font-semibold text-primary-700">Edit session</p>
            <h1 className="mt-1 text-2xl font-bold tracking-tight break-words sm:text-3xl">
              {session.sessionName}
            </h1>
          </div>
          {roleIn(session, user?._id) === "creator" ? (
            <EditForm key={session._id} session={session} lobby={lobby} />
          ) : (
            <div className="flex flex-col items-start gap-4">
              <p className="flex items-start gap-2 rounded-xl bg-slate-50 px-4 py-3 text-slate-700 ring-1 ring-slate-200 ring-inset">
                <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
                {ONLY_CREATOR_MESSAGE}
              </p>
              <ButtonLink to={lobby} variant="secondary">
                <ArrowLeft aria-hidden="true" className="size-4" />
                Back to the session
              </ButtonLink>
            </div>
          )}
        </CardBody>
      </Card>
    </Container>
  );
}

type FieldErrors = Partial<Record<keyof EditValues, string>>;

function EditForm({ session, lobby }: { session: Session; lobby: string }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<EditValues>(() => initialEditValues(session));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const preview = changedFields(session, values);
  const dirty = "budgetError" in preview || Object.keys(preview.body).length > 0;
  const nameMissing = values.sessionName.trim() === "";

  const save = useUpdateSession(session._id, {
    onSuccess: () => {
      toast.success("Session updated", { autoClose: 6000 });
      navigate(lobby);
    },
    onError: (error) => {
      const message = errorMessage(error, UPDATE_FAILED_MESSAGE);
      toast.error(message, { autoClose: 8000 });
      if (error instanceof ApiError && error.fields) {
        setErrors(error.fields as FieldErrors);
        setFormError(null);
      } else {
        setFormError(message);
      }
    },
  });

  function set<K extends keyof EditValues>(key: K, value: EditValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
    if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    if (nameMissing) {
      setErrors((current) => ({ ...current, sessionName: "Session name is required" }));
      return;
    }
    const result = changedFields(session, values);
    if ("budgetError" in result) {
      setErrors((current) => ({ ...current, budget: result.budgetError }));
      return;
    }
    if (Object.keys(result.body).length === 0) return;
    setFormError(null);
    save.mutate(result.body);
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Edit session" className="flex flex-col gap-5">
      <TextField
        label="Session Name"
        name="sessionName"
        required
        autoComplete="off"
        maxLength={SESSION_NAME_MAX_LENGTH}
        value={values.sessionName}
        error={errors.sessionName}
        onChange={(event) => set("sessionName", event.target.value)}
      />
      <SelectField
        label="Session Type"
        name="sessionType"
        required
        value={values.sessionType}
        error={errors.sessionType}
        onChange={(event) => {
          const type = event.target.value as SessionType;
          setValues((current) => retyped(session, current, type));
        }}
      >
        {SESSION_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </SelectField>
      <ParticipantsField
        value={values.participants}
        onChange={(value) => set("participants", value)}
      />
      <PresetFields
        type={values.sessionType}
        values={values}
        onChange={(change) => setValues((current) => ({ ...current, ...change }))}
      />
      <TextField
        label="Passcode"
        name="passcode"
        optional
        autoComplete="off"
        maxLength={PASSCODE_MAX_LENGTH}
        hint="Leave it empty to remove the passcode."
        value={values.passcode}
        error={errors.passcode}
        onChange={(event) => set("passcode", event.target.value)}
      />
      <TextField
        label="Budget"
        name="budget"
        optional
        inputMode="decimal"
        autoComplete="off"
        placeholder="e.g. 150"
        hint={`In ${currencyName()}. Leave it empty for no budget.`}
        value={values.budget}
        error={errors.budget}
        onChange={(event) => set("budget", event.target.value)}
      />
      <FormAlert message={formError} live={false} />
      <FormActions cancelTo={lobby}>
        <Button type="submit" disabled={!dirty} loading={save.isPending}>
          {!save.isPending && <Save aria-hidden="true" className="size-4" />}
          Save
        </Button>
      </FormActions>
    </form>
  );
}
