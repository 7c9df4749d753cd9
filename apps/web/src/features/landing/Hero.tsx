import { useNavigate } from "../../lib/router.tsx";
import { useState } from "react";
import { toast } from "../../lib/toast.ts";
import { Sparkles } from "lucide-react";
import { SIGN_IN_WARNING_AUTO_CLOSE_MS } from "@cartner/contract";
import { ShoppingTogether } from "../../components/illustrations/ShoppingTogether.tsx";
import { Badge, Card, Container } from "../../components/ui/index.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { setPendingSession, type PendingSession } from "../../lib/storage.ts";
import { announceCreated, CreateSessionForm, creationFailedMessage } from "../sessions/index.ts";
import {
  NO_SESSION_ID_MESSAGE,
  createSession,
  createdSessionId,
  sessionKeys,
} from "../../api/sessions-calls.ts";

export const SIGN_IN_TO_CREATE_MESSAGE = "Please sign in to create a session";

export function Hero() {
  const navigate = useNavigate();
  const { isSignedIn, user } = useAuth();
  const [creating, setCreating] = useState(false);

  // A plain request, not a TanStack mutation: the landing page is prerendered for visitors and
  // loads without the query client (docs/decisions/013-first-load.md).
  async function createNow(values: PendingSession) {
    setCreating(true);
    try {
      const response = await createSession(values);
      const id = createdSessionId(response);
      if (!id) {
        window.alert(NO_SESSION_ID_MESSAGE);
        return;
      }
      announceCreated(user?._id, id, response.message);
      void import("../../app/query-client.tsx").then(({ getQueryClient }) =>
        getQueryClient().invalidateQueries({ queryKey: sessionKeys.all }),
      );
      navigate(`/session/${encodeURIComponent(id)}`);
    } catch (error) {
      // The landing form reports failure with a browser alert, not a toast.
      window.alert(creationFailedMessage(error));
    } finally {
      setCreating(false);
    }
  }

  function handleSubmit(values: PendingSession) {
    if (!isSignedIn) {
      setPendingSession(values);
      toast.warning(SIGN_IN_TO_CREATE_MESSAGE, { autoClose: SIGN_IN_WARNING_AUTO_CLOSE_MS });
      navigate("/login");
      return;
    }
    void createNow(values);
  }

  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-linear-to-b from-primary-50/80 via-canvas to-canvas"
    >
      <Container className="grid gap-10 py-10 sm:py-14 lg:grid-cols-[1.15fr_1fr] lg:grid-rows-[auto_1fr] lg:gap-x-14 lg:gap-y-4 lg:py-20">
        <div className="flex flex-col gap-6 lg:col-start-1 lg:row-start-1">
          <Badge tone="accent" className="self-start px-3 py-1 text-sm">
            <Sparkles aria-hidden="true" className="size-4" />
            Shop together, in real time
          </Badge>
          <h1
            id="hero-title"
            className="text-4xl leading-[1.1] font-extrabold tracking-tight sm:text-5xl xl:text-6xl"
          >
            One cart for your group. <span className="text-primary-600">A fair split</span> for
            everyone.
          </h1>
          <p className="max-w-xl text-lg leading-relaxed text-slate-600">
            Cartner gives couples, friends and families a shared shopping session: invite your
            people, fill one live cart together and see everyone&apos;s share before you check out.
          </p>
        </div>

        <Card className="p-5 sm:p-8 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-center">
          <h2 className="text-xl font-bold sm:text-2xl">Start a shopping session</h2>
          <p className="mt-1 text-sm text-slate-600">
            Name it, pick who it&apos;s for, and invite your people next.
          </p>
          <CreateSessionForm className="mt-6" onSubmit={handleSubmit} submitting={creating} />
        </Card>

        <ShoppingTogether
          className="mx-auto max-w-md lg:col-start-1 lg:row-start-2 lg:mx-0 lg:max-w-lg lg:self-end"
          title="Two friends filling one shared cart together"
        />
      </Container>
    </section>
  );
}
