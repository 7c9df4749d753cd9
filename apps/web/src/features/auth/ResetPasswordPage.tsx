import { useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { OTP_LENGTH, PASSWORD_MIN_LENGTH } from "@cartner/contract";
import { useResetPassword } from "../../api/auth.ts";
import { Button, FormAlert, TextField } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { clearCredentials } from "../../lib/storage.ts";
import { focusFirstError, type FieldErrors } from "../../lib/form-errors.ts";
import { DevMailboxHint } from "../../shared/DevMailboxHint.tsx";
import { AuthShell } from "./AuthShell.tsx";
import type { ResetLocationState } from "./ForgotPasswordPage.tsx";

export const PASSWORD_RESET_MESSAGE = "Password changed. Sign in with your new password.";

/** /reset-password: the mailed code and a new password; every device is signed out after. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const state = useLocation().state as ResetLocationState | null;
  const [email, setEmail] = useState(state?.email ?? "");
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const reset = useResetPassword(() => ({ email: email.trim(), code, password }), {
    onSuccess: () => {
      // This device is signed out too.
      clearCredentials();
      toast.success(PASSWORD_RESET_MESSAGE, { autoClose: 8000 });
      navigate("/login", { replace: true });
    },
    onError: (failure) => {
      const message = errorMessage(failure, "We couldn't change your password. Try again.");
      if (failure instanceof ApiError && failure.fields) setErrors({ ...failure.fields });
      setFormError(message);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const found: FieldErrors = {};
    if (!email.trim()) found.email = "Email is required";
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code))
      found.code = `The code is ${OTP_LENGTH} digits`;
    if (password.length < PASSWORD_MIN_LENGTH) {
      found.password = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
    }
    if (confirm !== password) found.confirm = "The passwords do not match";
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(event.currentTarget, found, ["email", "code", "password", "confirm"]);
      return;
    }
    reset.mutate();
  }

  return (
    <AuthShell
      title="Set a new password"
      subtitle="Enter the code we emailed you and choose a new password. Every device will be signed out."
    >
      {state?.notice && (
        <p
          role="status"
          className="mb-5 rounded-xl bg-primary-50 px-4 py-3 text-sm text-primary-800 ring-1 ring-primary-200 ring-inset"
        >
          {state.notice}
        </p>
      )}
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-5"
        aria-label="Reset password"
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <TextField
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          required
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ""))}
          error={errors.code}
        />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <TextField
          label="Confirm new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={errors.confirm}
        />
        <FormAlert message={formError} live />
        <Button type="submit" size="lg" fullWidth loading={reset.isPending}>
          {reset.isPending ? "Saving…" : "Set new password"}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        No code?{" "}
        <Link
          to="/forgot-password"
          state={{ email }}
          className="font-semibold text-primary-700 hover:underline"
        >
          Send another
        </Link>
      </p>
      <DevMailboxHint className="mt-6" />
    </AuthShell>
  );
}
