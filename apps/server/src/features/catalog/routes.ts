import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { listChanges } from "./changes.ts";
import type { CatalogDeps } from "./deps.ts";
import { IMAGE_UPLOAD_LIMITS, readImageUpload } from "./image-upload.ts";
import { addProduct, changeProduct, listCatalog, replaceImage } from "./operator-edits.ts";

/** The operator's catalog calls; each checks the caller's account role (operator-gate.ts). */
export async function catalogRoutes(app: FastifyInstance, deps: CatalogDeps): Promise<void> {
  route(app, "GET /api/catalog/products", async (request) =>
    listCatalog(deps, request.auth.user._id, request.query),
  );

  route(app, "POST /api/catalog/products", async (request, reply) => {
    const product = await addProduct(deps, request.auth.user._id, request.body);
    return reply.code(201).send({ product });
  });

  route(app, "PATCH /api/catalog/products/:id", async (request) => ({
    product: await changeProduct(deps, request.auth.user._id, request.params.id, request.body),
  }));

  await app.register(multipart, { limits: IMAGE_UPLOAD_LIMITS });
  route(
    app,
    "PUT /api/catalog/products/:id/image",
    async (request) => ({
      product: await replaceImage(deps, request.auth.user._id, request.params.id, () =>
        readImageUpload(request),
      ),
    }),
    {
      // @fastify/multipart traces the options it gives its parser, the request headers (and
      // so the bearer token) included: keep only the limits.
      logSerializers: {
        busboyOptions: (options: { limits?: unknown }) => ({ limits: options.limits }),
      },
    },
  );

  route(app, "GET /api/catalog/changes", async (request) =>
    listChanges(deps, request.auth.user._id, request.query.cursor),
  );
}
