import { useId, type ReactNode } from "react";
import { Mail, Plus, Sparkles, UserPlus } from "lucide-react";
import { SharedCart } from "../../components/illustrations/SharedCart.tsx";
import { Badge, Card, Container } from "../../components/ui/index.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { CreateSessionForm } from "./CreateSessionForm.tsx";
import { InvitedSessions } from "./InvitedSessions.tsx";
import { JoinSessionForm } from "./JoinSessionForm.tsx";
import { SessionTabs } from "./SessionTabs.tsx";
import { WaitingRequests } from "./WaitingRequests.tsx";
import { useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { useCreateSession } from "../../api/sessions.ts";
import { announceCreated, creationFailedMessage } from "./create-session.ts";

function SectionHeading({
  id,
  icon,
  title,
  subtitle,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  subtitle?: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-primary-50 text-primary-600">
        {icon}
      </span>
      <div className="min-w-0">
        <h2 id={id} className="text-lg font-bold sm:text-xl">
          {title}
        </h2>
        {subtitle ? <p className="text-sm text-slate-600">{subtitle}</p> : null}
      </div>
    </div>
  );
}

/**
 * /sessions: create, join, my join requests waiting for approval, answer invites, and every
 * session in tabs.
 */
export function SessionsPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  // A toast, then the new session's lobby.
  const create = useCreateSession({
    onSuccess: ({ id, response }) => {
      announceCreated(user?._id, id, response.message);
      navigate(`/session/${encodeURIComponent(id)}`);
    },
    onError: (error) => {
      toast.error(creationFailedMessage(error), { autoClose: 8000 });
    },
  });
  const createId = useId();
  const joinId = useId();
  const invitesId = useId();
  const listId = useId();

  return (
    <>
      <title>Sessions — Cartner</title>
      <section
        aria-labelledby="sessions-title"
        className="relative overflow-hidden bg-linear-to-b from-primary-50/80 via-primary-50/30 to-canvas"
      >
        <Container className="grid items-center gap-6 py-8 sm:py-10 md:grid-cols-[1fr_16rem] lg:grid-cols-[1fr_20rem]">
          <div className="flex min-w-0 flex-col gap-4">
            <Badge tone="accent" className="self-start px-3 py-1 text-sm">
              <Sparkles aria-hidden="true" className="size-4" />
              Shop together
            </Badge>
            <h1
              id="sessions-title"
              className="text-3xl leading-tight font-extrabold tracking-tight sm:text-4xl"
            >
              Your shopping sessions
            </h1>
            <p className="max-w-xl text-slate-600 sm:text-lg">
              Start a session for your group, join a friend&apos;s with its code, and keep track of
              every shared cart in one place.
            </p>
          </div>
          <SharedCart className="hidden max-w-xs justify-self-center md:block" />
        </Container>
      </section>

      <Container className="flex flex-col gap-6 pt-4 pb-12 sm:pt-6">
        <div className="grid gap-6 lg:grid-cols-2">
          <Card aria-labelledby={createId} role="region" className="min-w-0 p-5 sm:p-6">
            <SectionHeading
              id={createId}
              icon={<Plus aria-hidden="true" className="size-5" />}
              title="Create a session"
              subtitle="Name it, pick who it's for, and set a budget if you like."
            />
            <CreateSessionForm
              className="mt-5"
              withBudget
              submitLabel="Create Session"
              onSubmit={(values) => create.mutate(values)}
              submitting={create.isPending}
            />
          </Card>

          <div className="flex min-w-0 flex-col gap-6">
            <Card aria-labelledby={joinId} role="region" className="p-5 sm:p-6">
              <SectionHeading
                id={joinId}
                icon={<UserPlus aria-hidden="true" className="size-5" />}
                title="Join a session"
                subtitle="Got a code from a friend? Enter it with the passcode."
              />
              <div className="mt-5">
                <JoinSessionForm />
              </div>
            </Card>

            <WaitingRequests />

            <Card aria-labelledby={invitesId} role="region" className="p-5 sm:p-6">
              <SectionHeading
                id={invitesId}
                icon={<Mail aria-hidden="true" className="size-5" />}
                title="Invited Sessions"
                subtitle="Sessions people have invited you to."
              />
              <div className="mt-3">
                <InvitedSessions headingId={invitesId} />
              </div>
            </Card>
          </div>
        </div>

        <section aria-labelledby={listId} className="flex flex-col gap-4 pt-2">
          <h2 id={listId} className="text-2xl font-bold tracking-tight">
            My sessions
          </h2>
          <SessionTabs />
        </section>
      </Container>
    </>
  );
}
