import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { OTP_LENGTH, OTP_RESEND_INTERVAL_MS, OTP_TTL_MS, type OtpPurpose } from "@cartner/contract";
import {
  Button,
  ButtonLink,
  FieldError,
  FormAlert,
  Input,
  Label,
} from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { signIn } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { formatCountdown } from "../../lib/format.ts";
import {
  clearPendingUserId,
  getPendingInvite,
  getPendingUserId,
  getUser,
} from "../../lib/storage.ts";
import { DevMailboxHint } from "../../shared/DevMailboxHint.tsx";
import {
  credentialsUpdatedMessage,
  MISSING_USER_ID_MESSAGE,
  type CredentialsOtpState,
} from "../../shared/credentials.ts";
import { createPendingSession } from "../sessions/index.ts";
import { useResendOtp, useVerifyOtp } from "../../api/auth.ts";
import { AuthShell } from "./AuthShell.tsx";
import type { OtpLocationState } from "./LoginPage.tsx";

export const PASSWORD_UPDATED_MESSAGE = "Password updated successfully.";

/** Digits only, at most OTP_LENGTH of them. */
export function sanitizeOtp(value: string): string {
  return value.replace(/\D/g, "").slice(0, OTP_LENGTH);
}

/** Where a verified user goes, by the purpose the server returns with the verified code. */
export function destinationFor(purpose: OtpPurpose | string | undefined): string {
  switch (purpose) {
    case "register":
      return "/editme";
    case "login":
      return "/";
    case "update":
      return "/profile";
    default:
      return "/";
  }
}

export function VerifyOtpPage() {
  // Read once: after success the id is removed, and the page must not flash the "missing" state.
  const [userId] = useState(getPendingUserId);
  const location = useLocation();
  const state = location.state as (OtpLocationState & CredentialsOtpState) | null;
  const email = state?.email;
  const change = state?.credentialsChange;
  const notice = state?.notice;

  if (!userId) {
    return (
      <AuthShell title="Verify your code">
        <div className="flex flex-col gap-5">
          <FormAlert message={MISSING_USER_ID_MESSAGE} />
          <ButtonLink to="/login" size="lg" fullWidth>
            Back to login
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  return <VerifyOtpForm userId={userId} email={email} change={change} notice={notice} />;
}

function useResendCountdown() {
  const [availableAt, setAvailableAt] = useState(() => Date.now() + OTP_RESEND_INTERVAL_MS);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (availableAt <= Date.now()) return;
    const timer = window.setInterval(() => {
      const time = Date.now();
      setNow(time);
      if (time >= availableAt) window.clearInterval(timer);
    }, 500);
    return () => window.clearInterval(timer);
  }, [availableAt]);

  const secondsLeft = Math.max(0, Math.ceil((availableAt - now) / 1000));
  function restart(seconds: number) {
    const time = Date.now();
    setNow(time);
    setAvailableAt(time + seconds * 1000);
  }
  return { secondsLeft, restart };
}

function VerifyOtpForm({
  userId,
  email,
  change,
  notice,
}: {
  userId: string;
  email: string | undefined;
  notice: string | undefined;
  /** Set by /editpass: what the code confirms. */
  change: CredentialsOtpState["credentialsChange"];
}) {
  const navigate = useNavigate();
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { secondsLeft, restart } = useResendCountdown();

  const verify = useVerifyOtp(userId, {
    onSuccess: async (result) => {
      const previousEmail = getUser()?.email;
      signIn(result.token, result.user);
      clearPendingUserId();
      // A session filled in while signed out is created now, and the user goes to /sessions.
      const created = await createPendingSession(result.user);
      // An invite link opened while signed out is accepted on its page, now.
      const invite = getPendingInvite();
      navigate(
        invite ? `/join/${invite}` : created ? "/sessions" : destinationFor(result.purpose),
        { replace: true },
      );
      if (result.purpose === "update") {
        // The message names what changed (the profile is read again, for its email).
        const emailChanged =
          change?.email ?? (previousEmail !== undefined && previousEmail !== result.user.email);
        const message = credentialsUpdatedMessage({
          email: emailChanged,
          password: change?.password ?? !emailChanged,
        });
        toast.success(message, { autoClose: 6000 });
      }
    },
    onError: (failure) => {
      const message = errorMessage(failure, "OTP verification failed");
      setError(message);
      toast.error(message, { autoClose: 8000 });
    },
  });

  const resend = useResendOtp(userId, {
    onSuccess: (result) => {
      restart(OTP_RESEND_INTERVAL_MS / 1000);
      toast.success(result.message || "A new code is on its way.", { autoClose: 6000 });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 429) {
        restart(failure.retryAfterSeconds ?? OTP_RESEND_INTERVAL_MS / 1000);
      }
      toast.error(errorMessage(failure, "Could not send a new code. Please try again."), {
        autoClose: 8000,
      });
    },
  });

  const complete = code.length === OTP_LENGTH;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!complete || verify.isPending) return;
    setError(null);
    verify.mutate(code);
  }

  return (
    <AuthShell
      title="Check your email"
      subtitle={
        <p>
          We sent a {OTP_LENGTH}-digit code to{" "}
          {email ? (
            <strong className="font-semibold text-ink">{email}</strong>
          ) : (
            "the email address on your account"
          )}
          . Enter it below to continue. It expires in {OTP_TTL_MS / 60_000} minutes.
        </p>
      }
    >
      {notice && (
        <p
          role="status"
          className="mb-5 rounded-xl bg-primary-50 px-4 py-3 text-sm text-primary-800 ring-1 ring-primary-200 ring-inset"
        >
          {notice}
        </p>
      )}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Verify code">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={inputId}>Verification code</Label>
          <Input
            id={inputId}
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={OTP_LENGTH}
            required
            autoFocus
            placeholder={"•".repeat(OTP_LENGTH)}
            value={code}
            onChange={(event) => {
              setCode(sanitizeOtp(event.target.value));
              if (error) setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={cn(hintId, error && errorId)}
            className="h-14 text-center font-display text-2xl font-semibold tracking-[0.5em] placeholder:tracking-[0.5em]"
          />
          <p id={hintId} className="text-sm text-slate-500">
            {OTP_LENGTH} digits, numbers only.
          </p>
          <FieldError id={errorId} message={error ?? undefined} live={false} />
        </div>

        <Button type="submit" size="lg" fullWidth disabled={!complete} loading={verify.isPending}>
          {verify.isPending ? "Verifying…" : "Verify"}
        </Button>
      </form>

      <div className="mt-6 flex flex-col items-center gap-2 text-center text-sm text-slate-600">
        <p>Didn&apos;t get it? Check your spam folder, or ask for a new one.</p>
        <Button
          variant="secondary"
          size="sm"
          disabled={secondsLeft > 0}
          loading={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {secondsLeft > 0 ? `Resend code in ${formatCountdown(secondsLeft)}` : "Resend code"}
        </Button>
      </div>

      <DevMailboxHint className="mt-8" />

      <p className="mt-6 text-center text-sm text-slate-600">
        Wrong account?{" "}
        <Link to="/login" className="font-semibold text-primary-700 hover:underline">
          Back to login
        </Link>
      </p>
    </AuthShell>
  );
}
