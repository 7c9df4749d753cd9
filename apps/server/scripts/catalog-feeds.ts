/**
 * Product feeds of any size for tests and benchmarks, in Google Merchant Center's tab-separated
 * and RSS 2.0 XML forms and as CSV. Rows follow the attribute examples of Google's product data
 * specification (an id like "A2B4", "15.00 USD", "in_stock", product_type "Home > Women > Dresses
 * > Maxi Dresses", google_product_category as a path or an id like "2271"). Row i depends only on
 * the seed and i, so a feed of 80 rows is the first 80 rows of one of 100 with the same seed.
 */
import { stringify } from "csv-stringify/sync";
import { XMLBuilder } from "fast-xml-parser";

export type FixtureFormat = "tsv" | "csv" | "xml";

export interface FixtureOptions {
  rows: number;
  format: FixtureFormat;
  seed?: number;
  currency?: string;
  /** Rows (0-based) written with a price in another currency, to be refused. */
  badRows?: number[];
  /**
   * Where the rows' pictures are: row i's image_link is `${imageBase}/${id}.jpg`. Unset, rows
   * have none (an import fetches every link it is given: a benchmark's rows must not wait on
   * addresses that do not answer).
   */
  imageBase?: string;
}

export const COLUMNS = [
  "id",
  "title",
  "description",
  "link",
  "image_link",
  "price",
  "sale_price",
  "availability",
  "brand",
  "gtin",
  "mpn",
  "product_type",
  "google_product_category",
  "color",
] as const;
export type FixtureRow = Record<(typeof COLUMNS)[number], string>;

interface Template {
  title: string;
  productType: string;
  googleCategory: string;
  /** Price range in whole units. */
  price: [number, number];
  colors?: string[];
  description: string;
}

const TEMPLATES: Template[] = [
  {
    title: "Mens Pique Polo Shirt",
    productType: "Home > Men > Shirts > Polo Shirts",
    googleCategory: "Apparel & Accessories > Clothing > Shirts & Tops",
    price: [12, 45],
    colors: ["Red", "Navy", "White", "Black"],
    description: "Made from 100% organic cotton, this classic men's polo has a slim fit.",
  },
  {
    title: "Womens Maxi Dress",
    productType: "Home > Women > Dresses > Maxi Dresses",
    googleCategory: "2271",
    price: [25, 90],
    colors: ["Black", "Green", "Blue"],
    description: "A long summer dress in light viscose. Machine wash cold.",
  },
  {
    title: "Wireless Over-Ear Headphones",
    productType: "Electronics > Audio > Headphones",
    googleCategory: "Electronics > Audio > Audio Components > Headphones & Headsets",
    price: [40, 250],
    colors: ["Black", "Silver"],
    description: "Noise cancelling, 30 hours of battery, folds flat.",
  },
  {
    title: "Organic Coffee Beans 1 kg",
    productType: "Groceries > Coffee",
    googleCategory: "Food, Beverages & Tobacco > Beverages > Coffee",
    price: [9, 28],
    description: "Whole beans, medium roast, from a farmers' co-operative.",
  },
  {
    title: "Sparkling Mineral Water 6 x 1 l",
    productType: "Drinks > Water",
    googleCategory: "Food, Beverages & Tobacco > Beverages > Water",
    price: [2, 7],
    description: "Naturally sparkling, bottled at the source.",
  },
  {
    title: "Sourdough Bread 750 g",
    productType: "Bakery",
    googleCategory: "Food, Beverages & Tobacco > Food Items > Bakery > Breads & Buns",
    price: [3, 8],
    description: "Slow-proofed rye and wheat sourdough, baked daily.",
  },
  {
    title: "Cast Iron Skillet 26 cm",
    productType: "Kitchen > Cookware",
    googleCategory:
      "Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware > Skillets & Frying Pans",
    price: [20, 70],
    description: "Pre-seasoned, oven safe, for every hob.",
  },
  {
    title: "Hydrating Face Cream 50 ml",
    productType: "Beauty > Skin Care",
    googleCategory: "Health & Beauty > Personal Care > Cosmetics > Skin Care",
    price: [8, 45],
    description: "Light daily moisturiser with hyaluronic acid.",
  },
  {
    title: "Yoga Mat 6 mm",
    productType: "Sports > Fitness",
    googleCategory: "Sporting Goods > Exercise & Fitness > Yoga & Pilates > Yoga & Pilates Mats",
    price: [15, 60],
    colors: ["Purple", "Grey", "Teal"],
    description: "Non-slip, easy to clean, with a carrying strap.",
  },
  {
    title: "Dish Soap 500 ml",
    productType: "Household > Cleaning",
    googleCategory: "Home & Garden > Household Supplies > Household Cleaning Supplies",
    price: [1, 5],
    description: "Plant-based, gentle on hands, tough on grease.",
  },
  {
    title: "Basmati Rice 2 kg",
    productType: "Pantry > Rice",
    googleCategory: "Food, Beverages & Tobacco > Food Items > Grains, Rice & Cereal > Rice",
    price: [3, 12],
    description: "Aged long-grain rice, fragrant and fluffy.",
  },
  {
    title: "Green Tea 50 Bags",
    productType: "Drinks > Tea",
    googleCategory: "Food, Beverages & Tobacco > Beverages > Tea & Infusions",
    price: [3, 14],
    description: "Fragrant green tea with jasmine.",
  },
  {
    title: "Phone Case",
    productType: "",
    googleCategory: "222",
    price: [9, 35],
    colors: ["Clear", "Black", "Pink"],
    description: "Slim shock-absorbing case with raised edges.",
  },
  {
    title: "Gift Card",
    productType: "",
    googleCategory: "",
    price: [10, 100],
    description: "A gift card for any product in the shop.",
  },
];

const BRANDS = ["Google", "Acme", "Northwind", "Fabrikam", "Contoso", "Tailspin", "Wingtip"];

/** A small seeded generator (mulberry32): the same seed gives the same numbers. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A GTIN-13 with its check digit, unique per row. */
function gtin13(n: number): string {
  const body = `400${String(n).padStart(9, "0")}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** Row i of the feed of this seed. */
export function fixtureRow(i: number, seed = 1, currency = "USD", imageBase?: string): FixtureRow {
  const next = random(seed * 1_000_003 + i);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const template = TEMPLATES[i % TEMPLATES.length]!;
  const brand = pick(BRANDS);
  const color = template.colors ? pick(template.colors) : "";
  const [low, high] = template.price;
  const cents = Math.round((low + next() * (high - low)) * 100);
  const onSale = next() < 0.15;
  const roll = next();
  const availability =
    roll < 0.85
      ? "in_stock"
      : roll < 0.93
        ? "out_of_stock"
        : roll < 0.97
          ? "preorder"
          : "backorder";
  const id = `A${i.toString(36).toUpperCase().padStart(4, "0")}`;
  const money = (c: number) => `${(c / 100).toFixed(2)} ${currency}`;
  return {
    id,
    title: `${brand} ${template.title}${color ? ` - ${color}` : ""}`,
    description: template.description,
    link: `https://shop.example/products/${id}`,
    image_link: imageBase ? `${imageBase}/${id}.jpg` : "",
    price: money(cents),
    sale_price: onSale ? money(Math.round(cents * 0.8)) : "",
    availability,
    brand,
    gtin: gtin13(i),
    mpn: `${brand.slice(0, 3).toUpperCase()}${10000 + i}`,
    product_type: template.productType,
    google_product_category: template.googleCategory,
    color,
  };
}

export function fixtureRows(options: FixtureOptions): FixtureRow[] {
  const currency = options.currency ?? "USD";
  const bad = new Set(options.badRows ?? []);
  return Array.from({ length: options.rows }, (_, i) => {
    const row = fixtureRow(i, options.seed ?? 1, currency, options.imageBase);
    // Another currency than the shop's: the one rule every deployment refuses.
    if (bad.has(i)) row.price = row.price.replace(currency, currency === "GBP" ? "USD" : "GBP");
    return row;
  });
}

/** The feed's file text in a format. */
export function feedText(options: FixtureOptions): string {
  return formatRows(fixtureRows(options), options.format);
}

export function formatRows(rows: FixtureRow[], format: FixtureFormat): string {
  if (format === "csv") return stringify(rows, { header: true, columns: [...COLUMNS] });
  if (format === "tsv") {
    // Google's tab-separated form has no quoting: a value holds no tab or line break.
    const clean = (value: string) => value.replace(/[\t\r\n]+/g, " ");
    return [COLUMNS.join("\t"), ...rows.map((r) => COLUMNS.map((c) => clean(r[c])).join("\t"))]
      .join("\n")
      .concat("\n");
  }
  const item = (row: FixtureRow) =>
    Object.fromEntries(
      COLUMNS.filter((c) => row[c] !== "").map((c) => [
        // RSS's own elements for these three, Google's namespace for the rest.
        c === "title" || c === "link" || c === "description" ? c : `g:${c}`,
        row[c],
      ]),
    );
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true });
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    rss: {
      "@_version": "2.0",
      "@_xmlns:g": "http://base.google.com/ns/1.0",
      channel: {
        title: "Example shop",
        link: "https://shop.example",
        description: "Products of the example shop",
        item: rows.map(item),
      },
    },
  }) as string;
}
