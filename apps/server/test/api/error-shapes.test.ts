/**
 * Every refusal uses the API's `{ message, code, requestId }` error shape, also those made before a
 * route runs (headers too large, a path parameter too long), and none echoes more than a short,
 * cut name of what the client sent.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, postProfileForm, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t.close());

/** Sends raw bytes over TCP and resolves with the whole answer once the server closes. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += String(chunk)));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
const long = "q".repeat(20_000);

describe("refusals before any route", () => {
  it("answers headers too large with 431 in the API's shape", async () => {
    const answer = await raw(
      `GET /api/conhealth HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    const body = bodyOf(answer);
    expect(body).toEqual({
      message: "The request's headers are too large.",
      code: "HEADERS_TOO_LARGE",
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(answer).toContain(`\r\nX-Request-Id: ${body.requestId}\r\n`);
  });

  it("answers a path parameter over the limit with 414 without echoing the path", async () => {
    const res = await t.app.inject({ method: "GET", url: `/api/sessions/${"z".repeat(400)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({
      message: "The address is too long.",
      code: "URI_TOO_LONG",
      requestId: res.headers["x-request-id"],
    });
    expect(res.body).not.toContain("zzzz");
    // An API answer, kept by no cache.
    expect(res.headers["cache-control"]).toBe("no-store");
  });
});

describe("names a client chose", () => {
  it("an unknown multipart field is named in at most 41 characters", async () => {
    const ann = await signUp(t, "Ann");
    const res = await postProfileForm(t, ann.token, { [long]: "x" });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThan(300);
    expect(Object.keys(res.json().fields)[0]).toBe(`${"q".repeat(40)}…`);
  });

  it("an unknown JSON key is cut the same way", async () => {
    const ann = await signUp(t, "Ann");
    const res = await client(t, ann.token)("POST", "/api/sessions", {
      sessionName: "Picnic",
      sessionType: "Friends",
      participants: "3+",
      [long]: 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThan(300);
    expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR" });
  });
});
