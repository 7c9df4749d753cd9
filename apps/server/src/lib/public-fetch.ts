/**
 * Fetching a URL someone else chose (a push endpoint, a picture's address) without letting it
 * reach the server's own network. Two checks:
 *
 * - the URL, before anything is sent: an allowed scheme, the scheme's standard port, a host name
 *   (no IP address) that is not a local or cluster-internal name (`publicUrlProblem`);
 * - every address the name resolves to, inside the connection's own lookup, so the socket opens
 *   to an address that was checked and no second lookup can swap in another (`isPublicAddress`).
 *   One non-public address among the answers refuses the name.
 *
 * Origins listed as trusted (a self-hosted push service, a test's stand-in) are reached as given.
 * Redirects are followed only when the caller allows some (pictures: a shop's CDN moves them), each
 * hop's URL and addresses checked as the first's; otherwise the caller sees the 3xx.
 */
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, request } from "undici";

/** A host name's addresses, as `dns.lookup(name, { all: true })` gives them. */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: HostResolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, order: "verbatim" });

/** Refused before sending: the URL, or an address its name resolved to, is not a public one. */
export class NotPublicError extends Error {
  override name = "NotPublicError";
}

/** The answer's body was longer than the caller takes. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/**
 * Public addresses that still belong to a cloud's own machinery (Azure's WireServer, which
 * answers metadata-like requests on every VM); the rest (169.254.169.254, fd00:ec2::254,
 * 100.100.100.200, 192.0.0.192) fall in the ranges refused below.
 */
const METADATA_ADDRESSES = new Set(["168.63.129.16"]);

/** IPv6 addresses routed on the internet: 2000::/3 (the rest is local, mapped or reserved). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * True for an address on the public internet: not loopback, private, link-local (cloud metadata),
 * CGNAT, unique-local, unspecified, multicast, broadcast, documentation or otherwise reserved,
 * nor an IPv4-mapped IPv6 form of any of these. The ranges are ipaddr.js's (IANA's registries).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so a mapped address is judged as IPv4.
  const ip = ipaddr.process(address);
  if (ip.range() !== "unicast" || METADATA_ADDRESSES.has(ip.toString())) return false;
  return ip.kind() === "ipv4" || (ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** Names that only mean something inside a network: home routers, Kubernetes, mDNS, cloud DNS. */
const LOCAL_NAME =
  /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home|corp|svc|arpa|invalid)$/i;

export interface PublicUrlRules {
  /** The schemes taken (push endpoints: https only; pictures: http and https). */
  protocols: readonly ("http:" | "https:")[];
  /** Origins reached as given, on any scheme, port and address (PUSH_SERVICE_ORIGINS). */
  trustedOrigins?: readonly string[] | undefined;
}

/**
 * Why this URL will not be fetched, as a phrase to follow the field's name ("must be …"), or
 * undefined. Checks the URL only; its addresses are checked when connecting.
 */
export function publicUrlProblem(value: string, rules: PublicUrlRules): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be a URL";
  }
  if (rules.trustedOrigins?.includes(url.origin)) return undefined;
  if (!(rules.protocols as readonly string[]).includes(url.protocol)) {
    return `must be an ${rules.protocols.map((p) => `${p}//`).join(" or ")} URL`;
  }
  if (url.username || url.password) return "must not carry a user name or password";
  // URL drops the scheme's own port, so any port left is another one.
  if (url.port !== "")
    return `must use the standard port (${url.protocol === "https:" ? 443 : 80})`;
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (net.isIP(host) !== 0) return "must name a host, not an IP address";
  if (!host.includes(".") || LOCAL_NAME.test(host)) return "must be on a public host name";
  return undefined;
}

/**
 * The connection's lookup (`net.connect`'s option): resolves the name once, refuses it unless
 * every address is public, and hands the socket the addresses it checked.
 */
export function guardedLookup(resolve: HostResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const refused = answers.find((a) => !isPublicAddress(a.address));
        if (answers.length === 0 || refused) {
          const why = refused ? `resolves to ${refused.address}` : "has no address";
          callback(new NotPublicError(`${hostname} ${why}, not a public address`), "", 4);
          return;
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? answers.filter((a) => a.family === family) : answers;
        const first = usable[0];
        if (!first) {
          const error = Object.assign(new Error(`${hostname} has no IPv${family} address`), {
            code: "ENOTFOUND",
          });
          callback(error, "", 4);
        } else if (options.all) {
          (callback as (e: null, all: dns.LookupAddress[]) => void)(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 4),
    );
  };
}

export interface PublicFetchOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** For the whole exchange, from the connection to the body's last byte. */
  timeoutMs: number;
  /** The longest body read; a longer one is BodyTooLargeError. */
  maxBytes: number;
  /** Redirects a GET follows (each hop checked like the first URL); 0 by default: the 3xx is answered. */
  maxRedirects?: number;
}

export interface PublicResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PublicFetch {
  /** Throws NotPublicError for a refused URL or address (never worth another try). */
  (url: string, options: PublicFetchOptions): Promise<PublicResponse>;
  /** Closes the kept-alive connections. */
  close(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createPublicFetch(
  rules: PublicUrlRules & {
    /** How names resolve (tests: a fixed answer); the system's resolver by default. */
    resolve?: HostResolver | undefined;
  },
): PublicFetch {
  const guarded = new Agent({
    connect: { lookup: guardedLookup(rules.resolve ?? systemResolver) },
  });
  const trusted = new Agent();

  async function send(url: string, options: PublicFetchOptions, signal: AbortSignal) {
    const isTrusted = rules.trustedOrigins?.includes(new URL(url).origin) ?? false;
    return request(url, {
      dispatcher: isTrusted ? trusted : guarded,
      method: options.method ?? "GET",
      headers: options.headers ?? {},
      body: options.body ?? null,
      signal,
    }).catch((error: unknown) => {
      // undici may wrap the lookup's refusal.
      const cause = (error as { cause?: unknown }).cause;
      throw cause instanceof NotPublicError ? cause : error;
    });
  }

  async function publicFetch(url: string, options: PublicFetchOptions): Promise<PublicResponse> {
    // One deadline for every hop and the body.
    const signal = AbortSignal.timeout(options.timeoutMs);
    const hopsAllowed = (options.method ?? "GET") === "GET" ? (options.maxRedirects ?? 0) : 0;
    let target = url;
    for (let hop = 0; ; hop++) {
      const problem = publicUrlProblem(target, rules);
      if (problem) {
        throw new NotPublicError(
          hop === 0 ? `the URL ${problem}` : `the redirect to ${target} ${problem}`,
        );
      }
      const response = await send(target, options, signal);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === "string" && hop < hopsAllowed) {
        await response.body.dump();
        target = new URL(location, target).href;
        continue;
      }
      const declared = Number(response.headers["content-length"]);
      if (declared > options.maxBytes) {
        // Closed unread; its abort error is expected, and nobody else listens for it.
        response.body.once("error", () => {}).destroy();
        throw new BodyTooLargeError(`the answer is longer than ${options.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        length += chunk.length;
        if (length > options.maxBytes) {
          response.body.destroy();
          throw new BodyTooLargeError(`the answer is longer than ${options.maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
      return {
        status: response.statusCode,
        headers: response.headers,
        body: Buffer.concat(chunks),
      };
    }
  }

  return Object.assign(publicFetch, {
    close: async () => {
      await Promise.all([guarded.close(), trusted.close()]);
    },
  });
}
