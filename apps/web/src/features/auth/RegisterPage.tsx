import { useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { PASSWORD_MIN_LENGTH, RegisterBodySchema } from "@cartner/contract";
import { Button, FormAlert, TextField } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { setPendingUserId } from "../../lib/storage.ts";
import { useRegister } from "../../api/auth.ts";
import { AuthShell } from "./AuthShell.tsx";
import { focusFirstError, issuesToFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import type { OtpLocationState } from "./LoginPage.tsx";

const FIELD_ORDER = ["name", "email", "password"];

export function RegisterPage() {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  // An invite mail links here with the invited address filled in.
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState(() => searchParams.get("email")?.slice(0, 254) ?? "");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const register = useRegister({
    onSuccess: (result) => {
      setPendingUserId(result.userId);
      const state: OtpLocationState = { email: result.user.email };
      navigate("/verify-otp", { state });
    },
    onError: (error) => {
      const message = `Signup failed: ${errorMessage(error, "Unknown error occurred.")}`;
      toast.error(message, { autoClose: 8000 });
      if (error instanceof ApiError && error.fields && Object.keys(error.fields).length > 0) {
        // The fields say what is wrong, right where it is wrong; no need for a third copy.
        setErrors(error.fields);
        setFormError(null);
        if (formRef.current) focusFirstError(formRef.current, error.fields, FIELD_ORDER);
      } else {
        setFormError(message);
      }
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const required: FieldErrors = {};
    if (name.trim() === "") required.name = "Name is required";
    if (email.trim() === "") required.email = "Email is required";
    if (password === "") required.password = "Password is required";
    const parsed = RegisterBodySchema.safeParse({ name, email, password });
    const found = parsed.success
      ? required
      : { ...issuesToFieldErrors(parsed.error.issues), ...required };
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) {
      focusFirstError(event.currentTarget, found, FIELD_ORDER);
      return;
    }
    register.mutate(parsed.data);
  }

  return (
    <AuthShell
      title="Become a cartner"
      subtitle="Create your account to start shopping with your people. It's free."
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-5"
        aria-label="Create account"
      >
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
        />
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
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. Avoid common passwords.`}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <FormAlert message={formError} live={false} />
        <Button type="submit" size="lg" fullWidth loading={register.isPending}>
          {register.isPending ? "Creating your account…" : "Create account"}
        </Button>
      </form>

      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link to="/login" className="font-semibold text-primary-700 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthShell>
  );
}
