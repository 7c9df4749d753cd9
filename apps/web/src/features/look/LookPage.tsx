import { useEffect, useId, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Eye, Radio } from "lucide-react";
import type { LookView } from "@cartner/contract";
import { fetchLookView } from "../../api/sessions-calls.ts";
import { LostCart } from "../../components/illustrations/LostCart.tsx";
import { Badge, Card, CardBody, Container, LoadError } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import { useParams } from "../../lib/router.tsx";
import { LineImage } from "../carts/index.ts";
import { startLookLive } from "./look-live.ts";

const lookKey = (token: string) => ["look", token] as const;

/**
 * /look/:token: the list a look-only link shows, for someone without an account (the one doing
 * the shop): each line's picture, name, quantity and note, and the total, kept live; no member.
 * When the link stops working (revoked, expired, the shop is over) the list goes away and the
 * page says so.
 */
export function LookPage() {
  const { token = "" } = useParams();
  const client = useQueryClient();
  const [gone, setGone] = useState(false);
  const [live, setLive] = useState(false);
  const view = useQuery({
    queryKey: lookKey(token),
    queryFn: ({ signal }) => fetchLookView(token, signal),
    retry: false,
    // The socket keeps it fresh; no refetch on focus that could race a newer live view.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  const notFound = view.error instanceof ApiError && view.error.status === 404;

  useEffect(() => {
    if (notFound || typeof globalThis.WebSocket !== "function") return;
    return startLookLive({
      token,
      onView: (next: LookView) => client.setQueryData(lookKey(token), next),
      onGone: () => {
        setGone(true);
        // Nothing of the list stays on the page or in memory.
        client.removeQueries({ queryKey: lookKey(token) });
      },
      onLive: setLive,
    });
  }, [client, token, notFound]);

  let body;
  if (gone || notFound) {
    body = <LinkGone />;
  } else if (view.isPending) {
    body = (
      <p role="status" className="py-10 text-center text-slate-600">
        Opening the list…
      </p>
    );
  } else if (view.isError) {
    body = (
      <LoadError
        title="We couldn't load the list"
        message={errorMessage(view.error, "Check your connection and try again.")}
        onRetry={() => void view.refetch()}
        retrying={view.isFetching}
      />
    );
  } else {
    body = <LookList view={view.data} live={live} />;
  }

  return (
    <Container className="py-6 sm:py-12">
      <title>
        {view.data && !gone ? `${view.data.sessionName} — Cartner` : "Shopping list — Cartner"}
      </title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">{body}</div>
    </Container>
  );
}

function LinkGone() {
  return (
    <Card>
      <CardBody className="flex flex-col items-center gap-4 text-center">
        <LostCart className="max-w-48" />
        <h1 className="text-2xl font-bold sm:text-3xl" data-testid="look-gone">
          This link no longer works
        </h1>
        <p role="alert" className="max-w-md text-slate-600">
          The list is no longer shared: the link was turned off, it expired, or the shop is over.
          Ask the person who sent it for a new one.
        </p>
      </CardBody>
    </Card>
  );
}

function LookList({ view, live }: { view: LookView; live: boolean }) {
  const titleId = useId();
  const count = view.lines.reduce((sum, l) => sum + l.quantity, 0);
  return (
    <Card>
      <CardBody className="flex flex-col gap-5">
        <header className="flex flex-col gap-2">
          <p className="flex items-center gap-2 text-sm font-semibold text-primary-600">
            <Eye aria-hidden="true" className="size-4" />
            Shared shopping list, to look at
          </p>
          <h1 id={titleId} className="text-2xl font-bold break-words sm:text-3xl">
            {view.sessionName}
          </h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            {live ? (
              <Badge tone="accent">
                <Radio aria-hidden="true" className="size-3.5" />
                Live
              </Badge>
            ) : (
              <Badge tone="neutral">Reconnecting…</Badge>
            )}
            <span role="status">Updated {formatDateTime(view.updatedAt)}</span>
          </div>
        </header>
        {view.lines.length === 0 ? (
          <p className="rounded-2xl bg-slate-50 p-4 text-center text-slate-600">
            The list is empty for now. New items show up here as they are added.
          </p>
        ) : (
          <ul aria-labelledby={titleId} className="flex flex-col divide-y divide-slate-100">
            {view.lines.map((line, index) => (
              <li
                key={`${line.name}-${index}`}
                data-testid="look-line"
                className="flex items-start gap-3 py-3"
              >
                <LineImage src={line.imageUrl} />
                <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <p className="font-semibold break-words text-ink">{line.name}</p>
                  {line.note && (
                    <p className="text-sm break-words text-slate-600">
                      <span className="font-medium">Note:</span> {line.note}
                    </p>
                  )}
                </div>
                <p className="shrink-0 text-right font-semibold text-ink">
                  <span className="sr-only">Quantity </span>
                  <span aria-hidden="true">× </span>
                  {line.quantity}
                </p>
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-baseline justify-between gap-3 border-t border-slate-200 pt-4">
          <p className="text-slate-600">
            Total{" "}
            <span className="text-sm">
              ({count} {count === 1 ? "item" : "items"})
            </span>
          </p>
          <p className="font-display text-xl font-bold text-ink" data-testid="look-total">
            {formatMoney(view.total)}
          </p>
        </div>
      </CardBody>
    </Card>
  );
}
