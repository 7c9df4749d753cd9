/**
 * Lists that grow with time are answered a page at a time, newest first: `cursor` is the `_id` of
 * the last item of the previous page, and `nextCursor` is null on the last page.
 */
import { z } from "zod";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "./constants.ts";

export const pageLimit = z.coerce
  .number("limit is a number")
  .int("limit is a whole number")
  .min(1, `limit is 1 to ${PAGE_LIMIT_MAX}`)
  .max(PAGE_LIMIT_MAX, `limit is 1 to ${PAGE_LIMIT_MAX}`)
  .default(PAGE_LIMIT_DEFAULT);

/** The query of a paged list; `cursor` names what the list holds (an order's id, ...). */
export const pageQuery = (of: string) =>
  z.strictObject({
    cursor: z.uuid(`cursor is the id of the last ${of} of the previous page`).optional(),
    limit: pageLimit,
  });

export type PageQuery = { cursor?: string | undefined; limit: number };

export const nextCursor = z
  .string()
  .nullable()
  .describe("The cursor of the next page; null on the last page");
