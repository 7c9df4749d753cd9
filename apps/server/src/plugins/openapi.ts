import swagger, { type SwaggerTransformObject } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** A body the route also takes absent (a nullable schema) is not a required one. */
const optionalBodies: SwaggerTransformObject = (document) => {
  const doc = "openapiObject" in document ? document.openapiObject : document.swaggerObject;
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations ?? {})) {
      const body = (operation as { requestBody?: { required?: boolean; content?: unknown } })
        .requestBody;
      const json = (body?.content as Record<string, { schema?: { nullable?: boolean } }>)?.[
        "application/json"
      ];
      if (body && json?.schema?.nullable) body.required = false;
    }
  }
  return doc;
};

/** The OpenAPI document, generated from the endpoint table's schemas; its UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Cartner API",
        version: "0.1.0",
        description: "Shop together: shared sessions, one live cart, a fair split.",
      },
      servers: [{ url: "/" }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: optionalBodies,
    hideUntagged: true,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });
}
