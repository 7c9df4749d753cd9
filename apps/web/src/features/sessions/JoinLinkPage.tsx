import { useEffect, useRef } from "react";
import { useNavigate, useParams } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { Link2, LogIn, UserPlus } from "lucide-react";
import { useAcceptInviteLink, useInvitePreview } from "../../api/invite-links.ts";
import { LostCart } from "../../components/illustrations/LostCart.tsx";
import { Badge, Button, ButtonLink, Card, CardBody, Container } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { formatDateTime } from "../../lib/format.ts";
import { clearPendingInvite, getPendingInvite, setPendingInvite } from "../../lib/storage.ts";
import { roleLabels } from "./session-model.ts";

export const LINK_NOT_FOUND_MESSAGE = "This invite link does not exist. Ask for a new one.";

/**
 * /join/:token: where an invite link leads (the session's name, who runs it, the role), for
 * anyone. A visitor signs in or up first and comes back here, where the join happens by itself.
 */
export function JoinLinkPage() {
  const { token = "" } = useParams();
  const navigate = useNavigate();
  const { user } = useAuth();
  const preview = useInvitePreview(token);
  const accept = useAcceptInviteLink(token, {
    onSuccess: ({ sessionId }) => {
      clearPendingInvite();
      toast.success(`You joined “${preview.data?.sessionName ?? "the session"}”.`);
      navigate(`/session/${encodeURIComponent(sessionId)}`, { replace: true });
    },
    onError: (error) => {
      clearPendingInvite();
      toast.error(errorMessage(error, "We couldn't add you to the session. Try again."));
    },
  });

  // Back from signing in or up with this link waiting: join at once, once.
  const autoJoined = useRef(false);
  useEffect(() => {
    if (!user || !preview.data || autoJoined.current) return;
    if (getPendingInvite() !== token) return;
    autoJoined.current = true;
    accept.mutate();
  }, [user, preview.data, token, accept]);

  function signInFirst(to: "/login" | "/register") {
    setPendingInvite(token);
    navigate(to);
  }

  let body;
  if (preview.isPending) {
    body = (
      <p role="status" className="text-slate-600">
        Opening the invite…
      </p>
    );
  } else if (preview.isError) {
    const gone = preview.error instanceof ApiError && preview.error.status === 410;
    body = (
      <>
        <LostCart className="max-w-48" />
        <h1 className="text-2xl font-bold sm:text-3xl">
          {gone ? "This invite link no longer works" : "Invite link not found"}
        </h1>
        <p className="max-w-md text-slate-600">
          {gone
            ? `${errorMessage(preview.error, "It has expired.")} Ask the session's creator for a new one.`
            : LINK_NOT_FOUND_MESSAGE}
        </p>
        <ButtonLink to="/sessions" variant="secondary">
          Sessions
        </ButtonLink>
      </>
    );
  } else {
    const invite = preview.data;
    body = (
      <>
        <span className="flex size-14 items-center justify-center rounded-full bg-primary-50 text-primary-600">
          <Link2 aria-hidden="true" className="size-7" />
        </span>
        <p className="text-slate-600">{invite.creatorName} invited you to</p>
        <h1 className="text-2xl font-bold break-words sm:text-3xl">{invite.sessionName}</h1>
        <Badge tone="primary">as a {roleLabels[invite.role].toLowerCase()}</Badge>
        <p className="text-sm text-slate-500">
          The link works until {formatDateTime(invite.expiresAt)}.
        </p>
        {user ? (
          <Button size="lg" loading={accept.isPending} onClick={() => accept.mutate()}>
            {accept.isPending ? "Joining…" : `Join ${invite.sessionName}`}
          </Button>
        ) : (
          <div className="flex w-full max-w-sm flex-col gap-2">
            <Button size="lg" onClick={() => signInFirst("/login")}>
              <LogIn aria-hidden="true" className="size-4" />
              Sign in to join
            </Button>
            <Button size="lg" variant="secondary" onClick={() => signInFirst("/register")}>
              <UserPlus aria-hidden="true" className="size-4" />
              Create an account to join
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <Container className="py-10 sm:py-16">
      <title>Join a session — Cartner</title>
      <Card className="mx-auto max-w-xl text-center">
        <CardBody className="flex flex-col items-center gap-4">{body}</CardBody>
      </Card>
    </Container>
  );
}
