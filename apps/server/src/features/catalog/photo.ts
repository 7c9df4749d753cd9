/**
 * A product's photo: checked to be an image by its content (not its name or declared type),
 * re-encoded to square WebP in two sizes without metadata, and stored, the product then showing
 * it at a URL holding its content hash. The one path for a feed's image_link and an operator's
 * upload.
 */
import crypto from "node:crypto";
import { ErrorCode } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import type { Metadata } from "sharp";
import { loadSharp } from "../../lib/sharp.ts";
import { catalogChanges, productImages, products } from "../../db/schema.ts";
import type { Db } from "../../db/types.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { PHOTO_SIZES, type Media } from "../../lib/media.ts";
import { notifyServers } from "./import.ts";

/** The largest photo taken, fetched or uploaded. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/**
 * The most pixels decoded (6000 x 6000): checked from the header before any pixel is, so a small
 * file that would expand to gigabytes (a decompression bomb) is refused unopened.
 */
export const PHOTO_MAX_PIXELS = 36_000_000;
const ACCEPTED = new Set(["jpeg", "png", "webp"]);
const QUALITY = 80;
/** libwebp's effort (0..6): 2 takes half the CPU of its default 4 for files within 1 % in size. */
const EFFORT = 2;

export interface EncodedPhoto {
  /** Short content hash of both sizes: part of their URLs. */
  hash: string;
  small: Buffer;
  large: Buffer;
}

const refuse = (message: string, status = 415) =>
  new AppError(
    status,
    status === 415 ? ErrorCode.UNSUPPORTED_MEDIA_TYPE : ErrorCode.VALIDATION,
    message,
    { fields: { image: message } },
  );

/**
 * The photo as square WebP images of both sizes, the whole picture fitted on white (a feed's
 * photos are of any shape; the app shows them in square frames). Throws a 415 AppError (field
 * `image`) for what is not a JPEG, PNG or WebP image, a 400 one for an image too large or broken.
 */
export async function encodePhoto(input: Buffer): Promise<EncodedPhoto> {
  if (input.length > PHOTO_MAX_BYTES) {
    throw refuse(`The image must be at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`, 400);
  }
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // Reading the header decodes no pixels, so no pixel limit is needed for it.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse("The image must be a JPEG, PNG or WebP picture.");
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) {
    throw refuse("The image must be a JPEG, PNG or WebP picture.");
  }
  if (!meta.width || !meta.height || meta.width * meta.height > PHOTO_MAX_PIXELS) {
    throw refuse("The image must be at most 36 megapixels (6000 x 6000).", 400);
  }
  try {
    const base = sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
      .rotate() // the EXIF orientation, before the metadata is dropped
      .flatten({ background: "#ffffff" });
    const [small, large] = await Promise.all(
      [PHOTO_SIZES.small, PHOTO_SIZES.large].map((side) =>
        base
          .clone()
          .resize(side, side, { fit: "contain", background: "#ffffff" })
          .webp({ quality: QUALITY, effort: EFFORT })
          .toBuffer(),
      ),
    );
    const hash = crypto
      .createHash("sha256")
      .update(small!)
      .update(large!)
      .digest("hex")
      .slice(0, 10);
    return { hash, small: small!, large: large! };
  } catch {
    throw refuse("The image could not be read.", 400);
  }
}

export interface PhotoDeps {
  db: Db;
  media: Media;
  /** PostgreSQL: tell every running server to reload its catalog when the photo is stored. */
  notifyServers?: boolean;
}

/** Who stores the photo, for the product's change log. */
export type PhotoOrigin = { source: "operator"; byId: string } | { source: "import"; link: string };

/**
 * Stores a product's new photo from its bytes (an upload, a fetched image_link): checked and
 * encoded by encodePhoto (its AppErrors pass through), then in one transaction the two sizes
 * saved, the product's picture switched to them, and the change logged. Returns the new image
 * URL (the large size). A 404 AppError when there is no such product. The caller's catalog copy
 * must be invalidated after (PostgreSQL's other servers are told with `notifyServers`).
 */
export async function storeProductImage(
  deps: PhotoDeps,
  productId: string,
  bytes: Buffer,
  origin: PhotoOrigin,
): Promise<string> {
  const photo = await encodePhoto(bytes);
  const source = origin.source === "import" ? origin.link : null;
  const slug = await deps.db.transaction(async (tx) => {
    const [product] = await tx
      .select({ slug: products.slug, hash: products.imageHash, type: products.imageType })
      .from(products)
      .where(eq(products.id, productId))
      .for("update");
    if (!product) throw notFound("Product not found.");
    await tx
      .insert(productImages)
      .values({ productId, hash: photo.hash, source, small: photo.small, large: photo.large })
      .onConflictDoUpdate({
        target: productImages.productId,
        set: {
          hash: photo.hash,
          source,
          small: photo.small,
          large: photo.large,
          updatedAt: sql`now()`,
        },
      });
    await tx
      .update(products)
      .set({ imageHash: photo.hash, imageType: "webp", updatedAt: sql`now()` })
      .where(eq(products.id, productId));
    await tx.insert(catalogChanges).values({
      source: origin.source,
      byId: origin.source === "operator" ? origin.byId : null,
      productId,
      field: "image",
      // The pictures' paths (not URLs: PUBLIC_URL may change).
      from: pathOf(deps.media.productImage(product.slug, product.hash, product.type)),
      to: pathOf(deps.media.productImage(product.slug, photo.hash, "webp")),
    });
    if (deps.notifyServers) await notifyServers(tx, [productId]);
    return product.slug;
  });
  return deps.media.productImage(slug, photo.hash, "webp");
}

const pathOf = (url: string) => new URL(url).pathname;

/** One size of a stored photo, by its file's slug and hash (a stale hash finds nothing). */
export async function productPhoto(
  db: Db,
  slug: string,
  hash: string,
  size: "small" | "large",
): Promise<Buffer | undefined> {
  const [found] = await db
    .select({ bytes: size === "small" ? productImages.small : productImages.large })
    .from(productImages)
    .innerJoin(products, eq(products.id, productImages.productId))
    .where(sql`${products.slug} = ${slug} and ${productImages.hash} = ${hash}`);
  return found?.bytes;
}
