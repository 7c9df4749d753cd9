import { ArrowLeft, Hammer } from "lucide-react";
import { CartUnderConstruction } from "../../components/illustrations/CartUnderConstruction.tsx";
import { Badge, ButtonLink, Card, CardBody, Container } from "../../components/ui/index.ts";

export interface ComingSoonPageProps {
  /** The page's name, shown as its heading, e.g. "Marketplace". */
  title: string;
  /** One friendly line about what will live here. */
  description?: string;
}

/** Stands in for pages that later issues build; each route swaps it for the real page. */
export function ComingSoonPage({ title, description }: ComingSoonPageProps) {
  return (
    <Container className="py-10 sm:py-16">
      <title>{`${title} — Cartner`}</title>
      <Card className="mx-auto max-w-2xl overflow-hidden">
        <div className="bg-linear-to-b from-primary-50 to-white px-6 pt-8 sm:px-10">
          <CartUnderConstruction className="mx-auto max-w-xs" />
        </div>
        <CardBody className="flex flex-col items-center gap-4 text-center">
          <Badge tone="accent">
            <Hammer aria-hidden="true" className="size-3.5" />
            Being built
          </Badge>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
          <p className="max-w-md text-slate-600">
            {description ? `${description} ` : ""}
            This part of Cartner is being built right now. Check back soon!
          </p>
          <ButtonLink to="/" variant="secondary" className="mt-2">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Home
          </ButtonLink>
        </CardBody>
      </Card>
    </Container>
  );
}
