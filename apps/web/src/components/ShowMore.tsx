import { Button } from "./ui/index.ts";

/** The part of an infinite query a "Show more" button reads (TanStack Query's result has it). */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/**
 * Below a paged list: "Show more" while the server has older items, busy while they load, and
 * the failure with the same button to try again. Nothing once the list is whole.
 */
export function ShowMore({ query, what }: { query: PagedQuery; what: string }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="flex flex-col items-center gap-2">
      {query.isFetchNextPageError && !query.isFetchingNextPage && (
        <p role="alert" className="text-sm text-danger-700">
          We couldn&apos;t load more {what}. Check your connection and try again.
        </p>
      )}
      <Button
        variant="secondary"
        size="sm"
        loading={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        {query.isFetchingNextPage ? `Loading more ${what}…` : `Show more ${what}`}
      </Button>
    </div>
  );
}
