/** The yardstick for `npm run bench`: a bare Fastify route on the same machine and runtime. */
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ ok: true }));
await app.listen({ port: Number(process.argv[2] ?? 3198), host: "127.0.0.1" });
