import { House } from "lucide-react";
import { LostCart } from "./illustrations/LostCart.tsx";
import { ButtonLink, Container } from "./ui/index.ts";

export function NotFoundPage() {
  return (
    <Container className="flex flex-col items-center py-12 text-center sm:py-20">
      <title>Page Not Found — Cartner</title>
      <LostCart className="max-w-72" />
      <p className="mt-6 font-display text-sm font-semibold tracking-widest text-accent-700 uppercase">
        Error 404
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page Not Found</h1>
      <p className="mt-3 max-w-md text-slate-600">
        This aisle is empty. The page you were looking for does not exist or has moved.
      </p>
      <ButtonLink to="/" className="mt-8">
        <House aria-hidden="true" className="size-4" />
        Back to Home
      </ButtonLink>
    </Container>
  );
}
