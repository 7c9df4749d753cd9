import {
  useMutation,
  useQueryClient,
  type QueryKey,
  type UseMutationOptions,
} from "@tanstack/react-query";

/**
 * What a component adds to a data module's mutation hook: its own reactions to the outcome
 * (toasts, navigation, form state). The hook keeps the call and the cache updates.
 */
export type Reactions<TData, TVariables = void> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  "onMutate" | "onSuccess" | "onError" | "onSettled"
>;

/** What a call answers. */
export type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/**
 * The usual data-module mutation: the call, and on success the queries under `stale` are read
 * again (not waited for) before the component's own onSuccess runs.
 */
export function useInvalidatingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  stale: readonly QueryKey[],
  reactions: Reactions<TData, TVariables>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn,
    onSuccess: (...args) => {
      for (const queryKey of stale) void client.invalidateQueries({ queryKey });
      return reactions.onSuccess?.(...args);
    },
  });
}
