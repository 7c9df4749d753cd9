import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  usePrefetchInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
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

/** Products per page of the grid: a catalog of any size is read a page at a time. */
export const PRODUCTS_PAGE = 60;

/** The grid's pages of one query: the next starts where the loaded ones end, up to the total. */
export function productPagesQuery(query: ProductQuery) {
  return infiniteQueryOptions({
    queryKey: [...productKeys.list(queryString(query)), "pages"] as const,
    queryFn: ({ signal, pageParam }) =>
      fetchProducts({ ...query, limit: PRODUCTS_PAGE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.products.length, 0);
      return last.products.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
}

/** The filtered grid, a page at a time. The previous result stays on screen while the next loads. */
export function useProductList(query: ProductQuery) {
  const options = productPagesQuery(query);
  // The request starts as the page renders, not once it is on screen: when the page's chunk has
  // just loaded, React holds the first commit back (it never swaps the loading spinner for the
  // page sooner than 300 ms after showing it), and useInfiniteQuery alone would only ask after that.
  usePrefetchInfiniteQuery(options);
  return useInfiniteQuery({ ...options, placeholderData: keepPreviousData });
}

/** A few products of a category, for a product's "Similar Products" row. */
export function useCategoryProducts(category: Product["category"], limit: number) {
  return useQuery(productsQuery({ category: [category], limit }));
}

/** A product some list already loaded, so the detail page can show it before its own call returns. */
function findInLists(client: QueryClient, id: string): Product | undefined {
  for (const [, data] of client.getQueriesData<
    ProductListResponse | InfiniteData<ProductListResponse>
  >({ queryKey: productKeys.lists() })) {
    const lists = data && "pages" in data ? data.pages : data ? [data] : [];
    for (const list of lists) {
      const product = list.products.find((p) => p._id === id);
      if (product) return product;
    }
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
