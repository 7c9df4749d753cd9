import { useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { useForgotPassword } from "../../api/auth.ts";
import { Button, FormAlert, TextField } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { AuthShell } from "./AuthShell.tsx";

export interface ResetLocationState {
  email?: string;
  notice?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** /forgot-password: asks for the email; the answer is the same whether or not it has an account. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState(
    () => (location.state as { email?: string } | null)?.email ?? "",
  );
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const send = useForgotPassword({
    onSuccess: (result, address) => {
      const state: ResetLocationState = { email: address, notice: result.message };
      navigate("/reset-password", { state });
    },
    onError: (failure) => {
      const message = errorMessage(failure, "We couldn't send a code. Try again.");
      setFormError(message);
      toast.error(message, { autoClose: 8000 });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setError(address ? "Enter a valid email address" : "Email is required");
      event.currentTarget.querySelector<HTMLInputElement>("input[name=email]")?.focus();
      return;
    }
    setError(undefined);
    send.mutate(address);
  }

  return (
    <AuthShell
      title="Forgot your password?"
      subtitle="Enter your account's email. We'll send a 6-digit code to set a new password."
    >
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-5"
        aria-label="Forgot password"
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error}
        />
        <FormAlert message={formError} live={false} />
        <Button type="submit" size="lg" fullWidth loading={send.isPending}>
          {send.isPending ? "Sending…" : "Send code"}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link to="/login" className="font-semibold text-primary-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthShell>
  );
}
