import { AVATAR_MAX_SIDE, ErrorCode } from "@cartner/contract";
import type { Metadata } from "sharp";
import { loadSharp } from "../../lib/sharp.ts";
import { AppError } from "../../lib/errors.ts";

const ACCEPTED = new Set(["png", "jpeg", "webp", "gif"]);
const AVATAR_SIZE = 256;

const refuse = (message: string, status = 415) =>
  new AppError(
    status,
    status === 415 ? ErrorCode.UNSUPPORTED_MEDIA_TYPE : ErrorCode.VALIDATION,
    message,
    {
      fields: { avatar: message },
    },
  );

/**
 * Checks an upload by its content (not its name or declared type) and re-encodes it to a 256 px
 * WebP without metadata. The size is read from the header before any pixel is decoded, so a
 * decompression bomb is refused without being expanded.
 */
export async function reencodeAvatar(input: Buffer): Promise<Buffer> {
  const limitInputPixels = AVATAR_MAX_SIDE * AVATAR_MAX_SIDE;
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // Reading the header only decodes no pixels, so no pixel limit is needed for it.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse("The avatar must be a PNG, JPEG, WebP or GIF image.");
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) {
    throw refuse("The avatar must be a PNG, JPEG, WebP or GIF image.");
  }
  if (
    !meta.width ||
    !meta.height ||
    meta.width > AVATAR_MAX_SIDE ||
    meta.height > AVATAR_MAX_SIDE
  ) {
    throw refuse(`The avatar must be at most ${AVATAR_MAX_SIDE} x ${AVATAR_MAX_SIDE} pixels.`, 400);
  }
  try {
    return await sharp(input, { limitInputPixels, failOn: "error" })
      .rotate() // apply the EXIF orientation before the metadata is dropped
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw refuse("The avatar image could not be read.", 400);
  }
}
