import type { ReactNode } from "react";
import { errorMessage } from "../lib/api.ts";
import { LoadError } from "./ui/index.ts";

/** The part of a list query a page draws from (TanStack Query's result has it). */
export interface ListQuery<T> {
  data: readonly T[] | undefined;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A list page's body: the list once it is there, `empty` when it has nothing, a load failure with
 * Try again, and `loading` until the first answer. Data already shown stays while a refetch fails.
 */
export function QueryList<T>({
  query,
  loading,
  errorTitle,
  empty,
  children,
}: {
  query: ListQuery<T>;
  loading: ReactNode;
  errorTitle: string;
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (query.data) return query.data.length === 0 ? empty : children(query.data);
  if (query.isError) {
    return (
      <LoadError
        title={errorTitle}
        message={errorMessage(query.error, "Check your connection and try again.")}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return loading;
}
