import { RefreshCw } from "lucide-react";
import { Button, ButtonLink, Card, CardBody, Container } from "../components/ui/index.ts";
import { LostCart } from "../components/illustrations/LostCart.tsx";

/** The friendly face of an unexpected error. */
export function ErrorNotice({ onRetry }: { onRetry?: () => void }) {
  return (
    <Container className="py-12 sm:py-20">
      <Card className="mx-auto max-w-xl text-center">
        <CardBody className="flex flex-col items-center gap-4">
          <LostCart className="max-w-56" />
          <h1 className="text-2xl font-bold sm:text-3xl">Something went wrong</h1>
          <p className="text-slate-600">
            Sorry, this page tripped over its own cart. Try again, or head back home. If it keeps
            happening, reloading the page usually helps.
          </p>
          <div className="mt-2 flex flex-wrap justify-center gap-3">
            {onRetry ? (
              <Button onClick={onRetry}>
                <RefreshCw aria-hidden="true" className="size-4" />
                Try again
              </Button>
            ) : (
              <Button onClick={() => window.location.reload()}>
                <RefreshCw aria-hidden="true" className="size-4" />
                Reload the page
              </Button>
            )}
            <ButtonLink to="/" variant="secondary" reloadDocument={!onRetry}>
              Back to Home
            </ButtonLink>
          </div>
        </CardBody>
      </Card>
    </Container>
  );
}
