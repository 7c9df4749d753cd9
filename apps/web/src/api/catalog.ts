import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { CatalogQuery, NewProductBody, Product, ProductChangeBody } from "@cartner/contract";
import { call, queryString } from "../lib/call.ts";
import { useInvalidatingMutation, type Reactions } from "../lib/mutation-reactions.ts";
import { productKeys } from "./products.ts";

/** The operator's catalog: a list keyed by its query, and the log of changes. */
export const catalogKeys = {
  all: ["catalog"] as const,
  lists: () => ["catalog", "list"] as const,
  list: (query: string) => ["catalog", "list", query] as const,
  changes: () => ["catalog", "changes"] as const,
};

// The catalog calls of the endpoint table (operators only).

export function fetchCatalog(query: CatalogQuery, signal?: AbortSignal) {
  return call("GET /api/catalog/products", { query }, { signal });
}

export function addProduct(body: NewProductBody) {
  return call("POST /api/catalog/products", { body });
}

export function changeProduct(id: string, body: ProductChangeBody) {
  return call("PATCH /api/catalog/products/:id", { params: { id }, body });
}

/** Multipart: api.ts sends FormData as is, so the browser sets the boundary. */
export function uploadProductImage(id: string, image: File) {
  const form = new FormData();
  form.append("image", image);
  return call("PUT /api/catalog/products/:id/image", { params: { id }, body: form });
}

export function fetchCatalogChanges(cursor: string | undefined, signal?: AbortSignal) {
  return call("GET /api/catalog/changes", { query: cursor ? { cursor } : {} }, { signal });
}

/** The catalog, a page at a time (Show more asks for the next). */
export function useCatalog(query: Omit<CatalogQuery, "cursor">) {
  return useInfiniteQuery({
    queryKey: catalogKeys.list(queryString(query)),
    // The list shown stays while the next search loads: a row being edited is not unmounted.
    placeholderData: keepPreviousData,
    queryFn: ({ signal, pageParam }) =>
      fetchCatalog({ ...query, ...(pageParam ? { cursor: pageParam } : {}) }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The newest changes first, a page at a time. */
export function useCatalogChanges() {
  return useInfiniteQuery({
    queryKey: catalogKeys.changes(),
    queryFn: ({ signal, pageParam }) => fetchCatalogChanges(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** A product's name for the log, from the marketplace's own call (it knows unavailable ones too). */
export function useProductName(id: string) {
  return useQuery({
    queryKey: productKeys.detail(id),
    queryFn: ({ signal }) =>
      call("GET /api/products/:id", { params: { id } }, { signal }).then((body) => body.product),
    select: (product: Product) => product.name,
    staleTime: 60_000,
  });
}

/** What a catalog change makes stale: the operator's lists and log, and the marketplace's. */
const STALE = [catalogKeys.all, productKeys.all] as const;

export function useChangeProduct(
  reactions: Reactions<
    Awaited<ReturnType<typeof changeProduct>>,
    { id: string; body: ProductChangeBody }
  >,
) {
  return useInvalidatingMutation(({ id, body }) => changeProduct(id, body), STALE, reactions);
}

/** What adding a product did: the product, and why its picture was refused (null: none or stored). */
export interface Added {
  product: Product;
  imageError: unknown;
}

/**
 * Adds a product, then its picture when one was chosen. A refused picture leaves the product
 * added (sending the form again would add it twice): the answer says why instead.
 */
export function useAddProduct(
  reactions: Reactions<Added, { body: NewProductBody; image: File | null }>,
) {
  return useInvalidatingMutation(
    async ({ body, image }: { body: NewProductBody; image: File | null }): Promise<Added> => {
      const { product } = await addProduct(body);
      if (!image) return { product, imageError: null };
      try {
        return {
          product: (await uploadProductImage(product._id, image)).product,
          imageError: null,
        };
      } catch (error) {
        return { product, imageError: error };
      }
    },
    STALE,
    reactions,
  );
}

export function useUploadProductImage(
  reactions: Reactions<Awaited<ReturnType<typeof uploadProductImage>>, { id: string; image: File }>,
) {
  return useInvalidatingMutation(
    ({ id, image }) => uploadProductImage(id, image),
    STALE,
    reactions,
  );
}
