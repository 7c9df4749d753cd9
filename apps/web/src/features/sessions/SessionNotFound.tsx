import { ArrowLeft } from "lucide-react";
import { LostCart } from "../../components/illustrations/LostCart.tsx";
import { ButtonLink, Card, CardBody, Container } from "../../components/ui/index.ts";

export const SESSION_NOT_FOUND = "Session not found";

/** A 404 from the API: the session does not exist, or you are not (or no longer) in it. */
export function SessionNotFound() {
  return (
    <Container className="py-10 sm:py-16">
      <title>{`${SESSION_NOT_FOUND} — Cartner`}</title>
      <Card className="mx-auto max-w-xl text-center">
        <CardBody className="flex flex-col items-center gap-4">
          <LostCart className="max-w-56" />
          <h1 className="text-2xl font-bold sm:text-3xl">{SESSION_NOT_FOUND}</h1>
          <p className="max-w-md text-slate-600">
            This session does not exist, or you are not a member of it. If you asked to join, it
            opens once the creator approves your request.
          </p>
          <ButtonLink to="/sessions" className="mt-2">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to sessions
          </ButtonLink>
        </CardBody>
      </Card>
    </Container>
  );
}
