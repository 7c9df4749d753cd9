import type { UseMutationOptions } from "@tanstack/react-query";

/**
 * What a component adds to a data module's mutation hook: its own reactions to the outcome
 * (toasts, navigation, form state). The hook keeps the call and the cache updates.
 */
export type Reactions<TData, TVariables = void> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  "onMutate" | "onSuccess" | "onError" | "onSettled"
>;
