/**
 * How the catalog's search reads text: products' and queries' words, GTINs and typos. Pure, and
 * shared by the index (search-index.ts) and the catalog that feeds it.
 */

/** What the index needs of one product, in the catalog's default order (position, then name). */
export interface IndexedProduct {
  name: string;
  brand: string | null;
  description: string;
  category: string;
  gtin: string | null;
  priceCents: number;
  rating: number;
  reviews: number;
  available: boolean;
}

/** Words of a product, kept with it so that a changed catalog re-reads only changed products. */
export interface ProductWords {
  title: string[];
  text: string[];
}

/** Lower case, accents off ("Crème" is "creme"): how both products and queries are read. */
export function normalize(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The words of a text: runs of letters and digits, normalised. */
export function words(text: string): string[] {
  return normalize(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A GTIN-shaped query ("4006381333931", "400-6381 333931"), as 14 digits; else undefined. */
export function gtinKey(text: string): string | undefined {
  const digits = text.replace(/[\s-]/g, "");
  if (!/^(\d{8}|\d{12,14})$/.test(digits)) return undefined;
  return digits.padStart(14, "0");
}

/** Whether a and b differ by at most one letter inserted, removed, replaced or two swapped. */
export function withinOneTypo(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return true;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // replaced
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swapped
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export function productWords(p: IndexedProduct): ProductWords {
  return {
    title: [...new Set([...words(p.name), ...words(p.brand ?? "")])],
    text: [...new Set([...words(p.description), ...words(p.category)])],
  };
}
