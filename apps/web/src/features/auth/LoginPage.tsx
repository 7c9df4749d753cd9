import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import type { LoginBody } from "@cartner/contract";
import { Button, FormAlert, TextField } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { setPendingUserId } from "../../lib/storage.ts";
import { login } from "../../api/auth-calls.ts";
import { AuthShell } from "./AuthShell.tsx";
import { focusFirstError, type FieldErrors } from "../../lib/form-errors.ts";
import { checkLogin } from "./login-validation.ts";
import { SocialSignIn } from "./SocialSignIn.tsx";

export interface OtpLocationState {
  /** Where the code was sent, to tell the user on the next page. */
  email?: string;
  /** Said on the code page: e.g. that the code sent a moment ago still works. */
  notice?: string;
}

export function LoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const [signingIn, setSigningIn] = useState(false);

  // A plain request, not a TanStack mutation: this page is prerendered for visitors and loads
  // without the query client (docs/decisions/013-first-load.md).
  async function signIn(body: LoginBody) {
    setSigningIn(true);
    try {
      const result = await login(body);
      setPendingUserId(result.userId);
      const state: OtpLocationState = {
        email: result.user.email,
        ...(result.codeAlreadySent ? { notice: result.message } : {}),
      };
      navigate("/verify-otp", { state });
    } catch (error) {
      const message = `Signin failed: ${errorMessage(error, "Something went wrong during login.")}`;
      toast.error(message, { autoClose: 8000 });
      setFormError(message);
    } finally {
      setSigningIn(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = checkLogin({ email, password });
    setErrors(checked.errors);
    if (!checked.success) {
      focusFirstError(event.currentTarget, checked.errors, ["email", "password"]);
      return;
    }
    void signIn(checked.data);
  }

  return (
    <AuthShell
      title="Welcome back"
      subtitle="Sign in to pick up where your group left off. We'll email you a 6-digit code."
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Sign in">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <div className="flex flex-col gap-1.5">
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={errors.password}
          />
          <Link
            to="/forgot-password"
            state={{ email }}
            className="self-end rounded-md text-sm font-semibold text-primary-700 hover:underline"
          >
            Forgot password?
          </Link>
        </div>
        <FormAlert message={formError} live={false} />
        <Button type="submit" size="lg" fullWidth loading={signingIn}>
          {signingIn ? "Signing in…" : "Sign in"}
        </Button>
      </form>

      <p className="mt-6 text-center text-sm text-slate-600">
        New to Cartner?{" "}
        <Link to="/register" className="font-semibold text-primary-700 hover:underline">
          Create an account
        </Link>
      </p>

      <SocialSignIn />
    </AuthShell>
  );
}
