import {
  keepPreviousData,
  queryOptions,
  usePrefetchQuery,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type { Product, ProductListResponse, ProductQuery } from "@cartner/contract";
import { call, queryString } from "../lib/call.ts";

/** Query keys: a list is keyed by its canonical query string, so equal filters share a cache entry. */
export const productKeys = {
  all: ["products"] as const,
  lists: () => ["products", "list"] as const,
  list: (query: string) => ["products", "list", query] as const,
  detail: (id: string) => ["products", "detail", id] as const,
};

export function fetchProducts(query: ProductQuery, signal?: AbortSignal) {
  return call("GET /api/products", { query }, { signal });
}

export function fetchProduct(id: string, signal?: AbortSignal) {
  return call("GET /api/products/:id", { params: { id } }, { signal });
}

export function productsQuery(query: ProductQuery) {
  return queryOptions({
    queryKey: productKeys.list(queryString(query)),
    queryFn: ({ signal }) => fetchProducts(query, signal),
  });
}

/** The filtered grid. The previous result stays on screen while the next one loads. */
export function useProductList(query: ProductQuery) {
  const options = productsQuery(query);
  // The request starts as the page renders, not once it is on screen: when the page's chunk has
  // just loaded, React holds the first commit back (it never swaps the loading spinner for the
  // page sooner than 300 ms after showing it), and useQuery alone would only ask after that.
  usePrefetchQuery(options);
  return useQuery({ ...options, placeholderData: keepPreviousData });
}

/** Every product (the unfiltered list, shared with the grid's default view). */
export function useAllProducts() {
  return useQuery(productsQuery({}));
}

/** A product some list already loaded, so the detail page can show it before its own call returns. */
function findInLists(client: QueryClient, id: string): Product | undefined {
  for (const [, data] of client.getQueriesData<ProductListResponse>({
    queryKey: productKeys.lists(),
  })) {
    const product = data?.products.find((p) => p._id === id);
    if (product) return product;
  }
  return undefined;
}

export function useProduct(id: string) {
  const client = useQueryClient();
  return useQuery<Product, Error, Product, ReturnType<typeof productKeys.detail>>({
    queryKey: productKeys.detail(id),
    queryFn: ({ signal }): Promise<Product> =>
      fetchProduct(id, signal).then((body) => body.product),
    placeholderData: () => findInLists(client, id),
  });
}
