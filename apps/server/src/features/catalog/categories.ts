/**
 * A feed row's category in our eight: from the operator's own `product_type` first (their words
 * for their shelves), else Google's `google_product_category` (its path, or its numeric id), else
 * DEFAULT_CATEGORY. A path is read from its last, most specific part back to its first, so
 * "Food, Beverages & Tobacco > Beverages > Coffee" is Drinks, not Food.
 */
import { PRODUCT_CATEGORIES, type ProductCategory } from "@cartner/contract";

/** Where a product goes when nothing in its row names one of ours: the everyday shelf. */
export const DEFAULT_CATEGORY: ProductCategory = "Groceries";

/** Words in a category path, checked in this order within one part of it. */
const WORDS: Array<[RegExp, ProductCategory]> = [
  // Things to make or serve food and drink in are kitchenware, whatever they hold ("Coffee Makers").
  [
    /\b(makers?|kettles?|machines?|grinders?|appliances?|mugs?|cups?|glasses|bottles)\b/,
    "Home & Kitchen",
  ],
  [
    /\b(beverages?|drinks?|coffee|tea|juices?|water|sodas?|soft drinks|wine|beer|spirits|liquor|milk drinks)\b/,
    "Drinks",
  ],
  [
    /\b(food|foods|snacks?|bakery|bread|dairy|cheese|fruits?|vegetables?|produce|meat|seafood|fish|sweets|candy|confectionery|chocolate|cereals?|pasta|frozen)\b/,
    "Food",
  ],
  [/\b(grocery|groceries|pantry|household supplies|cleaning|paper products)\b/, "Groceries"],
  [
    /\b(apparel|clothing|clothes|shoes|footwear|shirts?|tops|dresses|pants|jackets?|accessories|luggage|bags|jewelry)\b/,
    "Clothing",
  ],
  [
    /\b(electronics?|computers?|phones?|audio|video|cameras?|optics|software|headphones|televisions?|gaming)\b/,
    "Electronics",
  ],
  [
    /\b(beauty|cosmetics?|make-?up|skin care|hair care|fragrances?|perfume|personal care|health)\b/,
    "Beauty",
  ],
  [
    /\b(sporting goods|sports?|outdoors?|outdoor recreation|fitness|exercise|camping|cycling|hiking)\b/,
    "Sports & Outdoors",
  ],
  [
    /\b(home|kitchen|garden|furniture|cookware|tableware|dining|decor|bedding|appliances|hardware)\b/,
    "Home & Kitchen",
  ],
];

/**
 * Google's numeric ids for its top-level categories (and Beverages, the one second-level branch we
 * split off), from its published taxonomy; a deeper id not listed falls to the next source.
 */
const GOOGLE_IDS: Record<string, ProductCategory> = {
  "166": "Clothing", // Apparel & Accessories
  "2271": "Clothing", // Apparel & Accessories > Clothing > Dresses
  "141": "Electronics", // Cameras & Optics
  "222": "Electronics", // Electronics
  "2092": "Electronics", // Software
  "412": "Food", // Food, Beverages & Tobacco
  "413": "Drinks", // Food, Beverages & Tobacco > Beverages
  "436": "Home & Kitchen", // Furniture
  "536": "Home & Kitchen", // Home & Garden
  "638": "Home & Kitchen", // Home & Garden > Kitchen & Dining
  "469": "Beauty", // Health & Beauty
  "988": "Sports & Outdoors", // Sporting Goods
  "5181": "Clothing", // Luggage & Bags
};

const OURS = new Map(PRODUCT_CATEGORIES.map((c) => [c.toLowerCase(), c]));

/** One of our categories named by a path ("Home > Kitchen > Pans"), or undefined. */
function fromPath(path: string): ProductCategory | undefined {
  const trimmed = path.trim();
  if (/^\d+$/.test(trimmed)) return GOOGLE_IDS[trimmed];
  const parts = trimmed
    .toLowerCase()
    .split(">")
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  for (const part of parts) {
    const own = OURS.get(part);
    if (own) return own;
    for (const [words, category] of WORDS) if (words.test(part)) return category;
  }
  return undefined;
}

export function categoryOf(productType?: string, googleCategory?: string): ProductCategory {
  return (
    (productType ? fromPath(productType) : undefined) ??
    (googleCategory ? fromPath(googleCategory) : undefined) ??
    DEFAULT_CATEGORY
  );
}
