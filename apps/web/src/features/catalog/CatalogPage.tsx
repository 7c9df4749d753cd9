import { useEffect, useId, useRef, useState } from "react";
import { Lock, PackagePlus, PackageSearch, Search } from "lucide-react";
import {
  Button,
  ButtonLink,
  Container,
  EmptyState,
  Input,
  InlineLoading,
  LoadError,
  NativeSelect,
  Panel,
} from "../../components/ui/index.ts";
import { ShowMore } from "../../components/ShowMore.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { useCatalog } from "../../api/catalog.ts";
import { AddProductForm } from "./AddProductForm.tsx";
import { CatalogRow } from "./CatalogRow.tsx";
import { RecentChanges } from "./RecentChanges.tsx";

type Shown = "all" | "true" | "false";
const SEARCH_DELAY_MS = 300;

/** What a member who is no operator sees here (the server answered 403). */
function OperatorsOnly() {
  return (
    <EmptyState
      size="lg"
      icon={<Lock aria-hidden="true" className="size-7" />}
      title="Only the catalog's operators can see this page."
    >
      <p>Whoever runs Cartner makes an account an operator.</p>
      <ButtonLink to="/products" variant="secondary" size="sm">
        Explore the marketplace
      </ButtonLink>
    </EmptyState>
  );
}

/** /catalog: the operator's catalog, searched and changed in place, with the log of changes. */
export function CatalogPage() {
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [shown, setShown] = useState<Shown>("all");
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const wasAdding = useRef(false);
  const searchId = useId();
  const shownId = useId();

  // The form closed (added or cancelled): the focus goes back to the button that opened it.
  useEffect(() => {
    if (!adding && wasAdding.current) addButton.current?.focus();
    wasAdding.current = adding;
  }, [adding]);

  // The list follows what is typed once typing pauses.
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);

  const query = useCatalog({
    ...(q ? { q } : {}),
    ...(shown === "all" ? {} : { available: shown }),
  });
  const products = query.data?.pages.flatMap((page) => page.products);
  const forbidden = query.error instanceof ApiError && query.error.status === 403;

  return (
    <Container className="flex flex-col gap-5 py-6 sm:py-8">
      <title>Catalog — Cartner</title>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Catalog</h1>
          {!forbidden && (
            <p className="text-slate-600">
              Every product, on sale or not: change one in place, add one, take one off sale.
            </p>
          )}
        </div>
        {!forbidden && !adding && (
          <Button ref={addButton} onClick={() => setAdding(true)}>
            <PackagePlus aria-hidden="true" className="size-5" />
            Add a product
          </Button>
        )}
      </header>

      {forbidden ? (
        <OperatorsOnly />
      ) : (
        <div className="grid items-start gap-5 lg:grid-cols-[2fr_1fr]">
          <div className="flex min-w-0 flex-col gap-4">
            {adding && (
              <Panel title="Add a product" icon={PackagePlus}>
                <AddProductForm onDone={() => setAdding(false)} />
              </Panel>
            )}
            <search className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <div className="flex flex-1 flex-col gap-1.5">
                <label htmlFor={searchId} className="text-sm font-semibold text-ink">
                  Search the catalog
                </label>
                <div className="relative">
                  <Search
                    aria-hidden="true"
                    className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-400"
                  />
                  <Input
                    id={searchId}
                    type="search"
                    className="pl-10"
                    placeholder="Name, brand, key or GTIN"
                    value={typed}
                    onChange={(e) => setTyped(e.target.value)}
                  />
                </div>
              </div>
              <div className="flex flex-col gap-1.5 sm:w-48">
                <label htmlFor={shownId} className="text-sm font-semibold text-ink">
                  Show
                </label>
                <NativeSelect
                  id={shownId}
                  value={shown}
                  onChange={(e) => setShown(e.target.value as Shown)}
                >
                  <option value="all">All products</option>
                  <option value="true">On sale</option>
                  <option value="false">Off sale</option>
                </NativeSelect>
              </div>
            </search>
            {products ? (
              products.length === 0 ? (
                <EmptyState
                  icon={<PackageSearch aria-hidden="true" className="size-6" />}
                  title={q ? `No product matches “${q}”.` : "No products here yet."}
                >
                  <p>Add one, or import your feed with npm run catalog:import.</p>
                </EmptyState>
              ) : (
                <>
                  <ul aria-label="Products" className="flex flex-col gap-3">
                    {products.map((product) => (
                      <CatalogRow key={product._id} product={product} />
                    ))}
                  </ul>
                  <ShowMore query={query} what="products" />
                </>
              )
            ) : query.isError ? (
              <LoadError
                title="We couldn't load the catalog."
                message={errorMessage(query.error, "Check your connection and try again.")}
                onRetry={() => void query.refetch()}
                retrying={query.isFetching}
              />
            ) : (
              <InlineLoading>Loading the catalog…</InlineLoading>
            )}
          </div>
          <RecentChanges />
        </div>
      )}
    </Container>
  );
}
