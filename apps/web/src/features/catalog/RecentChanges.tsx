import type { CatalogChange } from "@cartner/contract";
import { History } from "lucide-react";
import { InlineEmpty, InlineLoadError, InlineLoading, Panel } from "../../components/ui/index.ts";
import { ShowMore } from "../../components/ShowMore.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useCatalogChanges, useProductName } from "../../api/catalog.ts";
import { describeChange } from "./catalog-model.ts";

function ChangeLine({ change }: { change: CatalogChange }) {
  // "added" logs the name the product was added with; other changes ask for its name now.
  const name = useProductName(change.productId);
  const productName = name.data ?? (change.field === "added" ? String(change.to) : "a product");
  return (
    <li className="flex flex-col gap-0.5 border-b border-slate-100 py-2.5 last:border-0">
      <span className="text-sm break-words text-ink">{describeChange(change, productName)}</span>
      <time dateTime={change.at} className="text-xs text-slate-500">
        {formatDateTime(change.at)}
      </time>
    </li>
  );
}

/** The newest catalog changes, with who made each. */
export function RecentChanges() {
  const query = useCatalogChanges();
  const changes = query.data?.pages.flatMap((page) => page.changes);
  return (
    <Panel title="Recent changes" icon={History}>
      {changes ? (
        changes.length === 0 ? (
          <InlineEmpty icon={<History aria-hidden="true" className="size-4" />}>
            No changes yet: what operators and imports change shows here.
          </InlineEmpty>
        ) : (
          <>
            <ul aria-label="Recent changes">
              {changes.map((change, i) => (
                <ChangeLine
                  key={`${change.at}-${change.productId}-${change.field}-${i}`}
                  change={change}
                />
              ))}
            </ul>
            <ShowMore query={query} what="changes" />
          </>
        )
      ) : query.isError ? (
        <InlineLoadError
          message="The changes could not be loaded."
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <InlineLoading>Loading the changes…</InlineLoading>
      )}
    </Panel>
  );
}
