import { useRef, useState, type FormEvent } from "react";
import { useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { ArrowLeft, KeyRound } from "lucide-react";
import type { UpdateCredentialsBody } from "@cartner/contract";
import {
  Button,
  ButtonLink,
  FormActions,
  Card,
  Container,
  FormAlert,
  TextField,
} from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { setPendingUserId } from "../../lib/storage.ts";
import { focusFirstError } from "../../lib/form-errors.ts";
import { MISSING_USER_ID_MESSAGE, type CredentialsOtpState } from "../../shared/credentials.ts";
import { Checkbox } from "./CheckField.tsx";
import { useUpdateCredentials } from "../../api/profile.ts";
import {
  validateCredentials,
  type CredentialsDraft,
  type CredentialsErrors,
} from "./profile-model.ts";

export const OTP_SENT_MESSAGE = "OTP sent to your email. Verify to complete password change.";
export const CREDENTIALS_UPDATED_MESSAGE = "Credentials updated successfully.";
export const CREDENTIALS_FAILED_MESSAGE = "Something went wrong.";

const FIELD_ORDER = ["email", "currentPassword", "password"];

/** /editpass: Change Email and Change Password checkboxes, each revealing its fields. */
export function EditCredentialsPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const [draft, setDraft] = useState<CredentialsDraft>({
    changeEmail: false,
    changePassword: false,
    email: "",
    currentPassword: "",
    newPassword: "",
  });
  const [errors, setErrors] = useState<CredentialsErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const submit = useUpdateCredentials({
    onSuccess: (result, body) => {
      const message = result?.message ?? "";
      if (/otp/i.test(message)) {
        if (!result.userId) {
          toast.error(MISSING_USER_ID_MESSAGE, { autoClose: 8000 });
          return;
        }
        setPendingUserId(result.userId);
        toast.success(OTP_SENT_MESSAGE, { autoClose: 8000 });
        const state: CredentialsOtpState = {
          credentialsChange: {
            email: body.email !== undefined,
            password: body.password !== undefined,
          },
        };
        const sentTo = body.email ?? user?.email;
        if (sentTo) state.email = sentTo;
        navigate("/verify-otp", { state });
        return;
      }
      toast.success(message.trim() || CREDENTIALS_UPDATED_MESSAGE, { autoClose: 6000 });
      navigate("/profile");
    },
    onError: (error) => {
      const message = errorMessage(error, CREDENTIALS_FAILED_MESSAGE);
      toast.error(message, { autoClose: 8000 });
      if (error instanceof ApiError && error.fields) {
        const fields: CredentialsErrors = {};
        for (const key of FIELD_ORDER) {
          const text = error.fields[key];
          if (text) fields[key as keyof CredentialsErrors] = text;
        }
        setErrors(fields);
        if (formRef.current) focusFirstError(formRef.current, fields, FIELD_ORDER);
      } else if (error instanceof ApiError && error.status === 409) {
        setErrors({ email: message });
      }
    },
  });

  function update<K extends keyof CredentialsDraft>(key: K, value: CredentialsDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors({});
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.isPending) return;
    const problems = validateCredentials(draft);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstError(event.currentTarget, problems, FIELD_ORDER);
      return;
    }
    const body: UpdateCredentialsBody = { currentPassword: draft.currentPassword };
    if (draft.changeEmail) body.email = draft.email.trim();
    if (draft.changePassword) body.password = draft.newPassword;
    submit.mutate(body);
  }

  const anyChecked = draft.changeEmail || draft.changePassword;

  return (
    <Container className="py-8 sm:py-12">
      <title>Change Email or Password — Cartner</title>
      <div className="mx-auto flex max-w-xl flex-col gap-6">
        <header className="flex flex-col gap-2">
          <ButtonLink to="/profile" variant="link" className="self-start text-sm">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to profile
          </ButtonLink>
          <h1 className="flex items-center gap-3 text-3xl font-extrabold tracking-tight sm:text-4xl">
            <KeyRound aria-hidden="true" className="size-8 shrink-0 text-primary-600" />
            Change email or password
          </h1>
          <p className="text-slate-600">
            We will email you a code to confirm the change. For a new email, the code goes to the
            new address.
          </p>
        </header>

        <Card className="p-5 sm:p-8">
          <form
            ref={formRef}
            noValidate
            onSubmit={onSubmit}
            aria-label="Change credentials"
            className="flex flex-col gap-5"
          >
            <fieldset className="flex flex-col gap-3">
              <legend className="mb-3 text-sm font-semibold text-slate-800">
                What would you like to change?
              </legend>
              <Checkbox
                label="Change Email"
                checked={draft.changeEmail}
                onChange={(on) => update("changeEmail", on)}
                description={user?.email ? `Currently ${user.email}` : undefined}
              />
              <Checkbox
                label="Change Password"
                checked={draft.changePassword}
                onChange={(on) => update("changePassword", on)}
              />
            </fieldset>

            {draft.changeEmail ? (
              <TextField
                label="New email"
                name="email"
                type="email"
                autoComplete="email"
                value={draft.email}
                onChange={(event) => update("email", event.target.value)}
                error={errors.email}
              />
            ) : null}

            {anyChecked ? (
              <TextField
                label="Current password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                value={draft.currentPassword}
                onChange={(event) => update("currentPassword", event.target.value)}
                error={errors.currentPassword}
                hint={draft.changePassword ? undefined : "Needed to confirm it is you."}
              />
            ) : null}

            {draft.changePassword ? (
              <TextField
                label="New password"
                name="password"
                type="password"
                autoComplete="new-password"
                value={draft.newPassword}
                onChange={(event) => update("newPassword", event.target.value)}
                error={errors.password}
                hint="At least 6 characters."
              />
            ) : null}

            <FormAlert message={errors.form} />

            <FormActions cancelTo="/profile">
              <Button type="submit" loading={submit.isPending}>
                {submit.isPending ? "Sending…" : "Continue"}
              </Button>
            </FormActions>
          </form>
        </Card>
      </div>
    </Container>
  );
}
