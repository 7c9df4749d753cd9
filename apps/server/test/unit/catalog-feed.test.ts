import { describe, expect, it } from "vitest";
import { categoryOf, DEFAULT_CATEGORY } from "../../src/features/catalog/categories.ts";
import {
  detectFormat,
  FeedFormatError,
  readFeed,
  type FeedFormat,
} from "../../src/features/catalog/feed-read.ts";
import { checkRows, DEFAULT_STOCK, gtinOf, stockFor } from "../../src/features/catalog/feed-row.ts";
import { feedText, fixtureRows, formatRows } from "../../scripts/catalog-feeds.ts";

const parse = (text: string, format: FeedFormat, currency = "EUR") =>
  checkRows(readFeed(text, format), currency);

/** Google's own example row, as its specification writes each attribute. */
const SPEC_TSV = [
  "id\ttitle\tdescription\tlink\timage_link\tprice\tsale_price\tavailability\tbrand\tgtin\tmpn\tproduct_type\tgoogle_product_category\tcolor",
  "A2B4\tMens Pique Polo Shirt\tMade from 100% organic cotton, this classic red men's polo has a slim fit. 12\" long.\thttps://www.example.com/product/A2B4\thttps://www.example.com/image1.jpg\t15.00 EUR\t\tin_stock\tGoogle\t3234567890126\tGO12345OOGLE\tHome > Men > Shirts > Polo Shirts\tApparel & Accessories > Clothing > Shirts & Tops\tRed",
].join("\n");

const SPEC_XML = `<?xml version="1.0"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0">
  <channel>
    <title>Example - Online Store</title>
    <link>https://www.example.com</link>
    <description>A shop's products</description>
    <item>
      <g:id>A2B4</g:id>
      <title><![CDATA[Mens Pique Polo Shirt]]></title>
      <description>Made from 100% organic cotton, this classic red men's polo has a slim fit. 12" long.</description>
      <link>https://www.example.com/product/A2B4</link>
      <g:image_link>https://www.example.com/image1.jpg</g:image_link>
      <g:price>15.00 EUR</g:price>
      <g:availability>in stock</g:availability>
      <g:brand>Google</g:brand>
      <g:gtin>3234567890126</g:gtin>
      <g:mpn>GO12345OOGLE</g:mpn>
      <g:product_type>Home &gt; Men &gt; Shirts &gt; Polo Shirts</g:product_type>
      <g:google_product_category>Apparel &amp; Accessories &gt; Clothing &gt; Shirts &amp; Tops</g:google_product_category>
      <g:color>Red</g:color>
      <g:shipping><g:country>DE</g:country><g:price>4.95 EUR</g:price></g:shipping>
    </item>
  </channel>
</rss>`;

const POLO = {
  key: "A2B4",
  name: "Mens Pique Polo Shirt",
  description: `Made from 100% organic cotton, this classic red men's polo has a slim fit. 12" long.`,
  category: "Clothing",
  priceCents: 1500,
  availability: "in_stock",
  brand: "Google",
  gtin: "3234567890126",
  color: "Red",
  imageLink: "https://www.example.com/image1.jpg",
};

describe("reading a feed", () => {
  it("reads Google's example row from the tab-separated file", () => {
    expect(parse(SPEC_TSV, "tsv")).toEqual({
      products: [POLO],
      refusals: [],
      refusedKeys: new Set(),
    });
  });

  it("reads the same row from RSS 2.0 XML with the g: namespace (CDATA, entities, a group)", () => {
    expect(parse(SPEC_XML, "xml").products).toEqual([POLO]);
  });

  it("reads CSV with the same columns, quoted values holding commas and quotes", () => {
    const csv = [
      "id,title,description,price,availability",
      'B1,"Pasta, 500 g","The ""good"" one",1.99 EUR,in_stock',
    ].join("\r\n");
    expect(parse(csv, "csv").products).toEqual([
      expect.objectContaining({ key: "B1", name: "Pasta, 500 g", description: 'The "good" one' }),
    ]);
  });

  it("reads every generated row alike in the three formats", () => {
    const rows = fixtureRows({ rows: 60, format: "tsv", currency: "EUR" });
    const tsv = parse(formatRows(rows, "tsv"), "tsv");
    expect(tsv.refusals).toEqual([]);
    expect(tsv.products).toHaveLength(60);
    expect(parse(formatRows(rows, "xml"), "xml")).toEqual(tsv);
    expect(parse(formatRows(rows, "csv"), "csv")).toEqual(tsv);
    // Every one of our categories that the templates name is reached.
    expect(new Set(tsv.products.map((p) => p.category))).toEqual(
      new Set([
        "Clothing",
        "Electronics",
        "Drinks",
        "Food",
        "Home & Kitchen",
        "Beauty",
        "Sports & Outdoors",
        "Groceries",
      ]),
    );
  });

  it("takes the sale price as the price while there is one", () => {
    const text = "id\ttitle\tprice\tsale_price\nS1\tSoap\t4.00 EUR\t2.50 EUR\n";
    expect(parse(text, "tsv").products[0]!.priceCents).toBe(250);
  });

  it("tells the format from the name, else from the first characters", () => {
    expect(detectFormat("feed.TSV", "")).toBe("tsv");
    expect(detectFormat("feed.txt", "")).toBe("tsv");
    expect(detectFormat("feed.csv", "")).toBe("csv");
    expect(detectFormat("feed.xml", "")).toBe("xml");
    expect(detectFormat("feed", "\uFEFF  <?xml")).toBe("xml");
    expect(detectFormat("feed", "id\ttitle\n")).toBe("tsv");
    expect(detectFormat("feed", "id,title\n")).toBe("csv");
  });

  it("refuses a file it cannot read, saying why", () => {
    expect(() => readFeed("<rss><channel><item>", "xml")).toThrow(FeedFormatError);
    expect(() => readFeed("<html></html>", "xml")).toThrow(/not an RSS 2.0/);
    expect(() => readFeed("title\tprice\nA\t1.00 EUR\n", "tsv")).toThrow(/no "id" column/);
    expect(() => readFeed("", "csv")).toThrow(/empty/);
  });
});

describe("refusing a row", () => {
  const refusalsOf = (lines: string[], currency = "EUR") =>
    parse(
      ["id\ttitle\tprice\tsale_price\tavailability\tgtin", ...lines].join("\n"),
      "tsv",
      currency,
    ).refusals;

  it("names the line and the field of each problem", () => {
    expect(
      refusalsOf([
        "A\tApples\t1.00 EUR\t\t\t",
        "B\tBread\t2.00 GBP\t\t\t",
        "C\tCheese\t12,50 EUR\t\t\t",
        "D\t\t1.00 EUR\t\t\t",
        "\tEggs\t1.00 EUR\t\t\t",
        "F\tFlour\t\t\t\t",
        "G\tGrapes\t0.00 EUR\t\t\t",
        "H\tHoney\t3.00 EUR\t4.00 EUR\t\t",
        "I\tIce\t1.00 EUR\t\tsold_out\t",
        "J\tJam\t1.00 EUR\t\t\t3234567890127",
        "A\tApples again\t1.00 EUR\t\t\t",
        "K\tKale\t1.00 EUR\t0.50 USD\t\t",
      ]),
    ).toEqual([
      { where: "line 3", field: "price", message: "is in GBP, but this shop's currency is EUR" },
      { where: "line 4", field: "price", message: '"12,50 EUR" is not a price like "12.50 EUR"' },
      { where: "line 5", field: "title", message: "is missing" },
      { where: "line 6", field: "id", message: "is missing" },
      { where: "line 7", field: "price", message: "is missing" },
      { where: "line 8", field: "price", message: "price must be above 0 and at most 1000000.00" },
      { where: "line 9", field: "sale_price", message: "is above price" },
      {
        where: "line 10",
        field: "availability",
        message: "must be one of in_stock, out_of_stock, preorder, backorder",
      },
      {
        where: "line 11",
        field: "gtin",
        message: '"3234567890127" is not a GTIN (8, 12, 13 or 14 digits with a right check digit)',
      },
      { where: "line 12", field: "id", message: "repeats the id of line 2" },
      {
        where: "line 13",
        field: "sale_price",
        message: "is in USD, but this shop's currency is EUR",
      },
    ]);
  });

  it("names a row by its item in XML", () => {
    const xml = feedText({ rows: 4, format: "xml", currency: "EUR", badRows: [2] });
    expect(parse(xml, "xml").refusals).toEqual([
      { where: "item 3", field: "price", message: "is in GBP, but this shop's currency is EUR" },
    ]);
  });

  it("names a CSV row by the line it ends on", () => {
    const csv = 'id,title,price\nA,"Two\nlines",1.00 EUR\nB,Bread,1.00 USD\n';
    expect(parse(csv, "csv").refusals).toEqual([
      { where: "line 4", field: "price", message: "is in USD, but this shop's currency is EUR" },
    ]);
  });

  it("keeps the refused rows' ids apart (so a full import does not take them off sale)", () => {
    expect(refusalsOf(["A\tApples\t1.00 GBP\t\t\t"])).toHaveLength(1);
    const checked = parse("id\ttitle\tprice\nA\tApples\t1.00 GBP\n", "tsv");
    expect(checked.refusedKeys).toEqual(new Set(["A"]));
  });
});

describe("mapping a row", () => {
  it("places a product by its product_type, then Google's category, then the default", () => {
    expect(categoryOf("Groceries > Coffee")).toBe("Drinks");
    expect(categoryOf("Home > Women > Dresses > Maxi Dresses")).toBe("Clothing");
    expect(categoryOf("Kitchen > Coffee Makers")).toBe("Home & Kitchen");
    expect(categoryOf("Bakery")).toBe("Food");
    expect(categoryOf("Specials", "Food, Beverages & Tobacco > Beverages > Tea & Infusions")).toBe(
      "Drinks",
    );
    expect(categoryOf(undefined, "2271")).toBe("Clothing");
    expect(categoryOf(undefined, "222")).toBe("Electronics");
    expect(categoryOf(undefined, "99999")).toBe(DEFAULT_CATEGORY);
    expect(categoryOf("Specials", "Vehicles & Parts")).toBe(DEFAULT_CATEGORY);
    expect(categoryOf("sports & outdoors")).toBe("Sports & Outdoors");
  });

  it("keeps the stock we hold while in stock, else the default; out of stock is 0", () => {
    expect(stockFor("in_stock", undefined)).toBe(DEFAULT_STOCK);
    expect(stockFor("in_stock", 7)).toBe(7);
    expect(stockFor("in_stock", 0)).toBe(DEFAULT_STOCK);
    expect(stockFor("preorder", 3)).toBe(3);
    expect(stockFor("backorder", undefined)).toBe(DEFAULT_STOCK);
    expect(stockFor("out_of_stock", 7)).toBe(0);
  });

  it("checks a GTIN's digit", () => {
    expect(gtinOf("4006381333931")).toBe("4006381333931");
    expect(gtinOf("4006-3813 33931")).toBe("4006381333931");
    expect(gtinOf("96385074")).toBe("96385074");
    expect(gtinOf("036000291452")).toBe("036000291452");
    expect(gtinOf("4006381333932")).toBeUndefined();
    expect(gtinOf("12345")).toBeUndefined();
  });
});

describe("the fixture generator", () => {
  it("writes the same file for the same seed, and a shorter feed is a prefix of a longer", () => {
    expect(feedText({ rows: 30, format: "tsv", seed: 7 })).toBe(
      feedText({ rows: 30, format: "tsv", seed: 7 }),
    );
    expect(feedText({ rows: 30, format: "tsv", seed: 8 })).not.toBe(
      feedText({ rows: 30, format: "tsv", seed: 7 }),
    );
    expect(fixtureRows({ rows: 100, format: "csv", seed: 3 }).slice(0, 80)).toEqual(
      fixtureRows({ rows: 80, format: "csv", seed: 3 }),
    );
  });
});
