/**
 * Product photos: storeProductImage (the one path for an operator's upload and a feed's
 * image_link) checks the bytes are an image, stores two WebP sizes, switches the product's
 * picture, logs the change; the app serves both sizes at URLs holding their content hash. An
 * import fetches its rows' pictures from a local HTTP server that the test lets through as
 * CATALOG_IMAGE_ORIGINS would (never the internet).
 */
import http from "node:http";
import type net from "node:net";
import { and, asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogChanges, products } from "../../src/db/schema.ts";
import { storeProductImage } from "../../src/features/catalog/index.ts";
import { createCatalog } from "../../src/features/products/catalog.ts";
import { createMedia } from "../../src/lib/media.ts";
import { AppError } from "../../src/lib/errors.ts";
import { createPublicFetch, type HostResolver } from "../../src/lib/public-fetch.ts";
import { runImport } from "../../src/features/catalog/run-import.ts";
import { createTestApp, sessionWithEveryRole, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
let operatorId: string;
const media = createMedia("http://localhost:3000");
beforeAll(async () => {
  t = await createTestApp();
  ({ userId: operatorId } = await signUp(t, "Olive"));
});
afterAll(async () => t.close());

/** A plain picture of a size and colour, as a photo app would save it. */
const picture = (width: number, height: number, format: "jpeg" | "png") => {
  const canvas = sharp({ create: { width, height, channels: 4, background: "#c0392b" } });
  return (format === "jpeg" ? canvas.jpeg() : canvas.png()).toBuffer();
};

async function someProduct(offset: number) {
  const [row] = await t.database.db
    .select()
    .from(products)
    .orderBy(asc(products.position))
    .limit(1)
    .offset(offset);
  return row!;
}

async function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url: new URL(url).pathname, headers });
}

describe("storeProductImage", () => {
  it("stores a JPEG as two square WebP sizes served at a hashed URL, cached for good", async () => {
    const product = await someProduct(0);
    const url = await storeProductImage(
      { db: t.database.db, media },
      product.id,
      await picture(1200, 900, "jpeg"),
      { source: "operator", byId: operatorId },
    );
    expect(url).toMatch(
      new RegExp(
        `^http://localhost:3000/api/catalog/images/${product.slug}-[0-9a-f]{10}-800\\.webp$`,
      ),
    );

    const large = await get(url);
    expect(large.statusCode).toBe(200);
    expect(large.headers["content-type"]).toBe("image/webp");
    expect(large.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(large.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(await sharp(large.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 800,
      height: 800,
    });
    const small = await get(url.replace(/-800\.webp$/, "-320.webp"));
    expect(small.statusCode).toBe(200);
    expect(small.headers["content-type"]).toBe("image/webp");
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 320, height: 320 });
    // Asked again with its ETag: not sent again.
    const again = await get(url, { "if-none-match": large.headers.etag as string });
    expect(again.statusCode).toBe(304);

    const [stored] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(stored).toMatchObject({ imageType: "webp", imageSvg: product.imageSvg });
    expect(url).toContain(stored!.imageHash);
    // The catalog, loaded again, shows the photo.
    expect((await createCatalog(t.database.db, media).get(product.id)).imageUrl).toBe(url);
    const logged = await t.database.db
      .select()
      .from(catalogChanges)
      .where(and(eq(catalogChanges.productId, product.id), eq(catalogChanges.field, "image")));
    expect(logged).toEqual([
      expect.objectContaining({
        source: "operator",
        byId: operatorId,
        from: `/api/catalog/images/${product.slug}-${product.imageHash}.svg`,
        to: new URL(url).pathname,
      }),
    ]);
  });

  it("replaces a photo with a PNG: the old URL is gone, the new one served", async () => {
    const product = await someProduct(1);
    const first = await storeProductImage(
      { db: t.database.db, media },
      product.id,
      await picture(400, 400, "jpeg"),
      { source: "operator", byId: operatorId },
    );
    const second = await storeProductImage(
      { db: t.database.db, media },
      product.id,
      await picture(300, 600, "png"),
      { source: "import", link: "https://shop.example.com/p.png" },
    );
    expect(second).not.toBe(first);
    expect((await get(first)).statusCode).toBe(404);
    const res = await get(second);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 800, height: 800 });
  });

  it("refuses what is not a JPEG, PNG or WebP image, naming the field, and changes nothing", async () => {
    const product = await someProduct(2);
    const gif = await sharp({
      create: { width: 10, height: 10, channels: 3, background: "#000" },
    })
      .gif()
      .toBuffer();
    for (const [bytes, status] of [
      [Buffer.from("<html>not a picture</html>"), 415],
      [gif, 415],
      // A JPEG's header with its pixels cut off.
      [(await picture(600, 600, "jpeg")).subarray(0, 400), 400],
    ] as const) {
      const refused = storeProductImage({ db: t.database.db, media }, product.id, bytes, {
        source: "operator",
        byId: operatorId,
      });
      await expect(refused).rejects.toBeInstanceOf(AppError);
      await expect(refused).rejects.toMatchObject({
        status,
        fields: { image: expect.any(String) },
      });
    }
    const [after] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(after).toMatchObject({ imageType: "svg", imageHash: product.imageHash });
    // Its drawn picture is still served.
    const drawn = await get(media.productImage(product.slug, product.imageHash));
    expect(drawn.headers["content-type"]).toMatch(/image\/svg\+xml/);
  });

  it("shows the photo on a cart's line and the session's summary", async () => {
    const f = await sessionWithEveryRole(t);
    const product = await someProduct(3);
    const url = await storeProductImage(
      { db: t.database.db, media },
      product.id,
      await picture(500, 500, "png"),
      { source: "operator", byId: operatorId },
    );
    const added = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: product.id,
      quantity: 1,
    });
    expect(added.statusCode, added.body).toBe(200);
    const line = (added.json().cart.products as Array<{ productId: { imageUrl: string } }>)[0]!;
    expect(line.productId.imageUrl).toBe(url);
    const summary = await f.as.creator("GET", `/api/sessions/${f.sessionId}/summary`);
    expect(summary.json().cartItems[0].product.imageUrl).toBe(url);
  });

  it("answers 404 for a product that does not exist", async () => {
    const refused = storeProductImage(
      { db: t.database.db, media },
      "00000000-0000-4000-8000-000000000000",
      await picture(100, 100, "png"),
      { source: "operator", byId: operatorId },
    );
    await expect(refused).rejects.toMatchObject({ status: 404 });
  });
});

describe("an import's pictures", () => {
  let shop: http.Server;
  let elsewhere: http.Server;
  let shopOrigin: string;
  let elsewhereOrigin: string;
  /** What each server was asked for, in order. */
  const asked: string[] = [];
  const askedElsewhere: string[] = [];
  let jpeg: Buffer;
  let png: Buffer;

  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  };
  beforeAll(async () => {
    jpeg = await picture(1000, 750, "jpeg");
    png = await picture(500, 500, "png");
    shop = http.createServer((req, res) => {
      asked.push(req.url ?? "");
      switch (req.url) {
        case "/good.jpg":
          return res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
        case "/good.png":
        case "/other.png":
          return res.writeHead(200, { "content-type": "image/png" }).end(png);
        case "/moved.png":
          return res.writeHead(301, { location: "/good.png" }).end();
        case "/elsewhere.jpg":
          return res.writeHead(302, { location: `${elsewhereOrigin}/good.jpg` }).end();
        case "/page.jpg":
          return res.writeHead(200, { "content-type": "image/jpeg" }).end("<html>Sorry</html>");
        case "/huge.jpg": {
          // 50 MB, sent without saying its length: read until the limit, then dropped.
          res.writeHead(200, { "content-type": "image/jpeg" });
          const chunk = Buffer.alloc(1024 * 1024, 0xff);
          let sent = 0;
          const more = () => {
            while (sent < 50 && !res.destroyed) {
              sent++;
              if (!res.write(chunk)) return void res.once("drain", more);
            }
            res.end();
          };
          res.on("error", () => {});
          return more();
        }
        default:
          return res.writeHead(404).end("not found");
      }
    });
    elsewhere = http.createServer((req, res) => {
      askedElsewhere.push(req.url ?? "");
      res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
    });
    shopOrigin = await listen(shop);
    elsewhereOrigin = await listen(elsewhere);
  });
  afterAll(async () => {
    for (const server of [shop, elsewhere]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const header =
    "id\ttitle\tprice\timage_link\tproduct_type\n" +
    "P-GOOD\tRed Mug\t4.50 USD\t{shop}/good.jpg\tKitchen\n" +
    "P-MOVED\tRed Plate\t6.00 USD\t{shop}/moved.png\tKitchen\n" +
    "P-404\tBlue Mug\t4.50 USD\t{shop}/missing.jpg\tKitchen\n" +
    "P-HUGE\tGreen Mug\t4.50 USD\t{shop}/huge.jpg\tKitchen\n" +
    "P-AWAY\tGrey Mug\t4.50 USD\t{shop}/elsewhere.jpg\tKitchen\n" +
    "P-HTML\tPink Mug\t4.50 USD\t{shop}/page.jpg\tKitchen\n" +
    "P-NONE\tPlain Mug\t4.50 USD\t\tKitchen\n";
  const feed = (text = header) => text.replaceAll("{shop}", shopOrigin);

  async function run(text: string, trusted: string[], resolve?: HostResolver) {
    const fetch = createPublicFetch({
      protocols: ["http:", "https:"],
      trustedOrigins: trusted,
      resolve,
    });
    try {
      return await runImport({ db: t.database.db, photos: { media, fetch } }, text, {
        fileName: "feed.tsv",
        currency: "USD",
      });
    } finally {
      await fetch.close();
    }
  }
  async function product(key: string) {
    const [row] = await t.database.db.select().from(products).where(eq(products.key, key));
    return row!;
  }

  it("stores the good ones as WebP at hashed URLs; the rest keep their drawn picture and are listed", async () => {
    const result = await run(feed(), [shopOrigin]);
    expect(result.diff?.added).toHaveLength(7);
    expect(result.photos).toEqual({
      fetched: 2,
      unchanged: 0,
      seconds: expect.any(Number),
      failed: [
        expect.objectContaining({ key: "P-404", reason: "the server answered 404" }),
        expect.objectContaining({ key: "P-HUGE", reason: "the picture is larger than 5 MB" }),
        expect.objectContaining({
          key: "P-AWAY",
          reason: `the redirect to ${elsewhereOrigin}/good.jpg must use the standard port (80)`,
        }),
        expect.objectContaining({
          key: "P-HTML",
          reason: "The image must be a JPEG, PNG or WebP picture.",
        }),
      ],
    });
    expect(askedElsewhere).toEqual([]);

    const catalog = createCatalog(t.database.db, media);
    for (const key of ["P-GOOD", "P-MOVED"]) {
      const { imageUrl } = await catalog.get((await product(key)).id);
      expect(imageUrl).toMatch(/-[0-9a-f]{10}-800\.webp$/);
      for (const [url, side] of [
        [imageUrl, 800],
        [imageUrl.replace(/-800\.webp$/, "-320.webp"), 320],
      ] as const) {
        const res = await get(url);
        expect(res.statusCode).toBe(200);
        expect(res.headers["content-type"]).toBe("image/webp");
        expect(res.headers["cache-control"]).toContain("immutable");
        expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: side, height: side });
      }
    }
    for (const key of ["P-404", "P-HUGE", "P-AWAY", "P-HTML", "P-NONE"]) {
      const row = await product(key);
      expect(row.imageType, key).toBe("svg");
      const { imageUrl } = await catalog.get(row.id);
      expect(imageUrl).toMatch(/\.svg$/);
      // (The app's own catalog was loaded before the import: an import tells it on PostgreSQL.)
      const drawn = await catalog.image(imageUrl.split("/").pop()!);
      expect(drawn.body).toMatch(/^<svg /);
    }
  });

  it("fetches nothing again for the same file (only what failed is tried again), and refetches a changed link", async () => {
    const before = await product("P-GOOD");
    asked.length = 0;
    const again = await run(feed(), [shopOrigin]);
    expect(again.diff).toMatchObject({ added: [], changed: [], unchanged: 7 });
    expect(again.photos).toMatchObject({ fetched: 0, unchanged: 2 });
    expect(again.photos!.failed.map((f) => f.key)).toEqual(["P-404", "P-HUGE", "P-AWAY", "P-HTML"]);
    expect(asked.sort()).toEqual(["/elsewhere.jpg", "/huge.jpg", "/missing.jpg", "/page.jpg"]);
    expect(await product("P-GOOD")).toEqual(before);

    asked.length = 0;
    const changed = await run(feed().replace(`${shopOrigin}/good.jpg`, `${shopOrigin}/other.png`), [
      shopOrigin,
    ]);
    expect(changed.photos).toMatchObject({ fetched: 1, unchanged: 1 });
    expect(asked).toContain("/other.png");
    const after = await product("P-GOOD");
    expect(after.imageHash).not.toBe(before.imageHash);
  });

  it("refuses a loopback address without the setting: by the URL, or by what the name resolves to", async () => {
    const text =
      "id\ttitle\tprice\timage_link\n" +
      `L-1\tLoop One\t1.00 USD\t${shopOrigin}/good.jpg\n` +
      "L-2\tLoop Two\t1.00 USD\thttp://pics.example.com/good.jpg\n";
    asked.length = 0;
    const toLoopback: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const result = await run(text, [], toLoopback);
    expect(result.photos).toEqual({
      fetched: 0,
      unchanged: 0,
      seconds: expect.any(Number),
      failed: [
        expect.objectContaining({
          key: "L-1",
          reason: "the URL must use the standard port (80)",
        }),
        expect.objectContaining({
          key: "L-2",
          reason: "pics.example.com resolves to 127.0.0.1, not a public address",
        }),
      ],
    });
    expect(asked).toEqual([]);
    expect((await product("L-1")).imageType).toBe("svg");
  });
});
