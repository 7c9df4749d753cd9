/**
 * lib/public-fetch.ts: which addresses count as public, which URLs are refused before anything is
 * sent, and fetches that resolve through an injected resolver (no DNS or internet here): a name
 * whose addresses are not all public is refused as the connection opens.
 */
import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  createPublicFetch,
  guardedLookup,
  isPublicAddress,
  NotPublicError,
  publicUrlProblem,
  type HostResolver,
} from "../../src/lib/public-fetch.ts";

describe("isPublicAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "cloud metadata (link-local)"],
    ["169.254.170.2", "container metadata (link-local)"],
    ["100.64.0.1", "CGNAT"],
    ["100.100.100.200", "Alibaba metadata (CGNAT)"],
    ["192.0.0.192", "Oracle metadata (reserved)"],
    ["168.63.129.16", "Azure WireServer"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["240.0.0.1", "reserved"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["fc00::1", "unique-local"],
    ["fd00:ec2::254", "AWS metadata (unique-local)"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::7f00:1", "IPv4-compatible loopback"],
    ["64:ff9b::a00:1", "NAT64 of a private address"],
    ["2002:7f00:1::1", "6to4"],
    ["2001:db8::1", "IPv6 documentation"],
    ["not an address", "not an address"],
  ])("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "142.250.74.138", "2a00:1450:4001:82b::200a", "::ffff:8.8.8.8"])(
    "takes %s",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("publicUrlProblem", () => {
  const https = { protocols: ["https:"] as const };
  const web = { protocols: ["http:", "https:"] as const };

  it.each([
    ["https://10.0.0.1.sslip.io:5432/x", https, "must use the standard port (443)"],
    ["https://push.example.com:8443/x", https, "must use the standard port (443)"],
    ["http://pics.example.com:8080/a.png", web, "must use the standard port (80)"],
    ["https://kubernetes.default.svc/x", https, "must be on a public host name"],
    ["https://metadata.google.internal/x", https, "must be on a public host name"],
    ["https://printer.local/x", https, "must be on a public host name"],
    ["https://localhost/x", https, "must be on a public host name"],
    ["https://push/x", https, "must be on a public host name"],
    ["https://169.254.169.254/latest/meta-data/", https, "must name a host, not an IP address"],
    ["https://0x7f.1/x", https, "must name a host, not an IP address"],
    ["https://[::1]/x", https, "must name a host, not an IP address"],
    ["http://push.example.com/x", https, "must be an https:// URL"],
    ["ftp://pics.example.com/a.png", web, "must be an http:// or https:// URL"],
    ["https://user:pw@push.example.com/x", https, "must not carry a user name or password"],
    ["push me", https, "must be a URL"],
  ])("refuses %s", (url, rules, problem) => {
    expect(publicUrlProblem(url, rules)).toBe(problem);
  });

  it("takes a public name on the standard port, and a trusted origin as it is", () => {
    expect(publicUrlProblem("https://fcm.googleapis.com:443/fcm/send/abc", https)).toBeUndefined();
    expect(publicUrlProblem("http://pics.example.com/a.png", web)).toBeUndefined();
    // Passes here; where the name leads is checked when connecting.
    expect(publicUrlProblem("https://127.0.0.1.nip.io/x", https)).toBeUndefined();
    const trusted = { ...https, trustedOrigins: ["http://localhost:8123"] };
    expect(publicUrlProblem("http://localhost:8123/notify/1", trusted)).toBeUndefined();
    expect(publicUrlProblem("http://localhost:8124/notify/1", trusted)).toBe(
      "must be an https:// URL",
    );
  });
});

describe("the connection's lookup", () => {
  const lookup = (answers: { address: string; family: number }[], options: object) =>
    new Promise<{ error: Error | null; result: unknown }>((resolve) => {
      guardedLookup(async () => answers)("pics.example.com", options, (error, ...result) =>
        resolve({ error, result: result }),
      );
    });

  it("hands the socket the addresses it checked, all of them or the first of a family", async () => {
    const answers = [
      { address: "2a00:1450:4001:82b::200a", family: 6 },
      { address: "142.250.74.138", family: 4 },
    ];
    expect(await lookup(answers, { all: true })).toEqual({ error: null, result: [answers] });
    expect(await lookup(answers, { family: 4 })).toEqual({
      error: null,
      result: ["142.250.74.138", 4],
    });
  });

  it("refuses the name when any one of its addresses is not public", async () => {
    const { error } = await lookup(
      [
        { address: "142.250.74.138", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
      { all: true },
    );
    expect(error).toBeInstanceOf(NotPublicError);
    expect(error?.message).toBe("pics.example.com resolves to 127.0.0.1, not a public address");
  });
});

describe("createPublicFetch", () => {
  let server: http.Server;
  let other: http.Server;
  let origin: string;
  let otherOrigin: string;
  const requests: string[] = [];
  const otherRequests: string[] = [];
  const listen = async (s: http.Server) => {
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/slow") return; // never answers
      if (req.url?.startsWith("/to/")) {
        const where = decodeURIComponent(req.url.slice(4));
        res.writeHead(302, { location: where === "other" ? `${otherOrigin}/secret` : where });
        return res.end();
      }
      if (req.url === "/declared-big") {
        // Says how long it is: refused before a byte of it is read.
        res.writeHead(200, { "content-length": String(50 * 1024 * 1024) });
        return res.write("x".repeat(10));
      }
      res.end(req.url === "/big" ? "x".repeat(1000) : "hello");
    });
    other = http.createServer((req, res) => {
      otherRequests.push(req.url ?? "");
      res.end("secret");
    });
    origin = await listen(server);
    otherOrigin = await listen(other);
  });
  afterAll(async () => {
    for (const s of [server, other]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  const resolved: string[] = [];
  /** A hostile DNS: every name leads to this machine. */
  const toLoopback: HostResolver = async (name) => {
    resolved.push(name);
    return [{ address: "127.0.0.1", family: 4 }];
  };

  it("reaches a trusted origin as it is, and reads its answer", async () => {
    const fetch = createPublicFetch({ protocols: ["https:"], trustedOrigins: [origin] });
    try {
      const answer = await fetch(`${origin}/hi`, { timeoutMs: 5000, maxBytes: 100 });
      expect({ status: answer.status, body: answer.body.toString() }).toEqual({
        status: 200,
        body: "hello",
      });
    } finally {
      await fetch.close();
    }
  });

  it("refuses a name that resolves to a loopback address when connecting, and sends nothing", async () => {
    const fetch = createPublicFetch({ protocols: ["http:", "https:"], resolve: toLoopback });
    const before = requests.length;
    try {
      const refused = fetch("http://pics.example.com/a.png", { timeoutMs: 5000, maxBytes: 100 });
      await expect(refused).rejects.toThrow(NotPublicError);
      await expect(refused).rejects.toThrow("pics.example.com resolves to 127.0.0.1");
      expect(resolved).toContain("pics.example.com");
      // A URL refused by its form never gets as far as a lookup.
      await expect(fetch(`${origin}/x`, { timeoutMs: 5000, maxBytes: 100 })).rejects.toThrow(
        new NotPublicError("the URL must use the standard port (80)"),
      );
      await expect(fetch("not a url", { timeoutMs: 5000, maxBytes: 100 })).rejects.toThrow(
        new NotPublicError("the URL must be a URL"),
      );
      expect(requests.length).toBe(before);
    } finally {
      await fetch.close();
    }
  });

  it("stops reading past maxBytes, and gives up after timeoutMs", async () => {
    const fetch = createPublicFetch({ protocols: ["https:"], trustedOrigins: [origin] });
    try {
      await expect(fetch(`${origin}/big`, { timeoutMs: 5000, maxBytes: 100 })).rejects.toThrow(
        BodyTooLargeError,
      );
      const started = Date.now();
      await expect(fetch(`${origin}/slow`, { timeoutMs: 200, maxBytes: 100 })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await fetch.close();
    }
  });

  it("follows redirects only when allowed, checking every hop like the first URL", async () => {
    const fetch = createPublicFetch({ protocols: ["http:", "https:"], trustedOrigins: [origin] });
    const options = { timeoutMs: 5000, maxBytes: 100 };
    try {
      // Not allowed: the caller sees the 3xx.
      const seen = await fetch(`${origin}/to/${encodeURIComponent("/hi")}`, options);
      expect(seen.status).toBe(302);
      const followed = await fetch(`${origin}/to/${encodeURIComponent("/hi")}`, {
        ...options,
        maxRedirects: 3,
      });
      expect({ status: followed.status, body: followed.body.toString() }).toEqual({
        status: 200,
        body: "hello",
      });
      // A hop to a port of this machine that is not trusted is refused before it is asked.
      await expect(fetch(`${origin}/to/other`, { ...options, maxRedirects: 3 })).rejects.toThrow(
        new NotPublicError(`the redirect to ${otherOrigin}/secret must use the standard port (80)`),
      );
      expect(otherRequests).toEqual([]);
      // Past the hops allowed, the last 3xx is the answer.
      const loop = `${origin}/to/${encodeURIComponent(`/to/${encodeURIComponent("/hi")}`)}`;
      expect((await fetch(loop, { ...options, maxRedirects: 1 })).status).toBe(302);
    } finally {
      await fetch.close();
    }
  });

  it("refuses an answer that says it is longer than maxBytes without reading it", async () => {
    const fetch = createPublicFetch({ protocols: ["https:"], trustedOrigins: [origin] });
    try {
      await expect(
        fetch(`${origin}/declared-big`, { timeoutMs: 5000, maxBytes: 5 * 1024 * 1024 }),
      ).rejects.toThrow(BodyTooLargeError);
    } finally {
      await fetch.close();
    }
  });

  it("refuses a redirect to a name that resolves to a loopback address", async () => {
    const fetch = createPublicFetch({
      protocols: ["http:", "https:"],
      trustedOrigins: [origin],
      resolve: toLoopback,
    });
    try {
      const hop = `${origin}/to/${encodeURIComponent("http://pics.example.com/a.png")}`;
      await expect(fetch(hop, { timeoutMs: 5000, maxBytes: 100, maxRedirects: 3 })).rejects.toThrow(
        "pics.example.com resolves to 127.0.0.1",
      );
    } finally {
      await fetch.close();
    }
  });
});
