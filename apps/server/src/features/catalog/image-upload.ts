import { ErrorCode, PRODUCT_IMAGE_MAX_BYTES } from "@cartner/contract";
import type { FastifyRequest } from "fastify";
import { AppError, echoName } from "../../lib/errors.ts";

/** The limits @fastify/multipart holds an upload of a product picture to. */
export const IMAGE_UPLOAD_LIMITS = {
  fileSize: PRODUCT_IMAGE_MAX_BYTES,
  files: 1,
  fields: 0,
  parts: 1,
};

/**
 * The one file of a picture upload (field `image`): multipart (else 415), one file named `image`
 * (else 400 naming the field), at most 5 MB (413 from the parser). Whether it is a JPEG, PNG or
 * WebP image is read from its content by encodePhoto(), which stores it.
 */
export async function readImageUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      "Send the picture as multipart/form-data with one file field named image",
    );
  }
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== "file" || part.fieldname !== "image") {
        throw new AppError(
          400,
          ErrorCode.VALIDATION,
          `Unexpected field ${echoName(part.fieldname)}`,
          {
            fields: { [echoName(part.fieldname)]: "Only one file field, image, is taken" },
          },
        );
      }
      bytes = await part.toBuffer(); // throws 413 past the limit
    }
  } catch (error) {
    // The parser's own errors (no boundary, a body cut off, too many parts) are the client's;
    // those with a status (413, 400) keep it.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw new AppError(400, ErrorCode.VALIDATION, "The form data is malformed.");
  }
  if (!bytes || bytes.length === 0) {
    throw new AppError(400, ErrorCode.VALIDATION, "Invalid image: is required", {
      fields: { image: "is required" },
    });
  }
  return bytes;
}
