import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where `npm run build` puts the web app; served when it exists. */
const defaultWebDist = path.resolve(here, "../../web/dist");

const boolish = z
  .enum(["true", "false", "1", "0", ""])
  .transform((value) => value === "true" || value === "1");

/** The origin of an http(s) URL, or undefined (values may not have parsed: see the refinement). */
function originOf(value: unknown): string | undefined {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
}

/** How many bytes an unpadded base64url string holds, or -1 when it is not one. */
function base64urlBytes(value: string): number {
  if (!/^[A-Za-z0-9_-]+$/.test(value) || value.length % 4 === 1) return -1;
  return Buffer.from(value, "base64url").length;
}

/** An ISO 4217 code Intl knows whose amounts have two minor digits (cents), as the app keeps them. */
export function isCentCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code) || !Intl.supportedValuesOf("currency").includes(code)) return false;
  const { maximumFractionDigits } = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: code,
  }).resolvedOptions();
  return maximumFractionDigits === 2;
}

/** `value` as an origin when it is one: an http(s) URL with nothing after the host but "/". */
function bareOrigin(value: string): string | undefined {
  const origin = originOf(value);
  return origin !== undefined && new URL(value).href === `${origin}/` ? origin : undefined;
}

// Other schemes have the origin "null", which sandboxed and data: pages send too.
const ORIGIN_RULE = "an http:// or https:// origin without a path, e.g. https://cartner.example";

/** A comma-separated list of origins (empty entries skipped); each bad one is reported. */
const originList = () =>
  z
    .string()
    .transform((list, ctx) => {
      const origins: string[] = [];
      for (const entry of list.split(",").map((item) => item.trim())) {
        if (entry === "") continue;
        const origin = bareOrigin(entry);
        if (origin) origins.push(origin);
        else
          ctx.addIssue({ code: "custom", message: `has "${entry}": each must be ${ORIGIN_RULE}` });
      }
      return origins;
    })
    .optional();

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("localhost"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Cartner <no-reply@cartner.local>"),
    /**
     * The address people open: the base of media URLs and links. Unset: APP_ORIGIN, else
     * http://localhost:<PORT>, where a developer opens the app.
     */
    PUBLIC_URL: z
      .string()
      .transform((value, ctx) => {
        const origin = bareOrigin(value);
        if (origin) return origin;
        ctx.addIssue({ code: "custom", message: `must be ${ORIGIN_RULE}` });
        return z.NEVER;
      })
      .optional(),
    /** The older name of PUBLIC_URL, still read; only its origin counts. */
    APP_ORIGIN: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .optional(),
    /** Comma-separated origins that CORS and the live socket allow besides PUBLIC_URL's. */
    ALLOWED_ORIGINS: originList(),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    WEB_DIST: z.string().min(1).default(defaultWebDist),
    TRUST_PROXY: boolish.default(false),
    /** Requests per minute per IP on the sign-in endpoints (register, login, verify, resend). */
    AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(30),
    /**
     * Requests per minute to the rest of the API: per account when signed in, else per address
     * (pictures, avatars and the web app's files are not counted).
     */
    RATE_LIMIT: z.coerce.number().int().positive().default(600),
    /**
     * Signed-in requests per minute from one address, every account there together (a household,
     * an office). Unset: 10 × RATE_LIMIT.
     */
    RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().optional(),
    /**
     * Web Push's VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it), both or
     * neither. Unset: derived from the server secret (JWT_SECRET or DATA_DIR's), so every
     * instance sharing the secret signs with the same key and subscriptions survive restarts.
     */
    VAPID_PUBLIC_KEY: z
      .string()
      .refine((key) => base64urlBytes(key) === 65, "must be 65 bytes in base64url (a P-256 key)")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .refine((key) => base64urlBytes(key) === 32, "must be 32 bytes in base64url")
      .optional(),
    /** Whom push services may contact: a mailto: or https: URL. Unset: PUBLIC_URL when https, else MAIL_FROM's address. */
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "must be a mailto: or https:// URL")
      .optional(),
    /**
     * Comma-separated origins of push services whose endpoints may be plain http or on a local
     * address (a self-hosted push service, or a test's stand-in); any other endpoint must be https
     * on a public host name.
     */
    PUSH_SERVICE_ORIGINS: originList(),
    /**
     * Comma-separated origins the catalog import fetches pictures from as given (any port, a local
     * address: a test's stand-in, a shop's own server on the network); any other image_link must
     * be http or https on a public host name.
     */
    CATALOG_IMAGE_ORIGINS: originList(),
    /**
     * The per-process caches (auth sessions, member reads): on by default; on PostgreSQL every
     * instance keeps its own true over NOTIFY (decision 007).
     */
    PROCESS_CACHES: boolish.optional(),
    /**
     * ISO 4217 code of every amount shown, mailed and printed. Amounts are kept in cents, so only
     * currencies of two minor digits are taken (decision 021).
     */
    CURRENCY: z
      .string()
      .transform((value) => value.trim().toUpperCase())
      .refine(isCentCurrency, "must be an ISO 4217 code of a currency with cents, e.g. USD or EUR")
      .default("USD"),
    /** Set: GET /metrics answers Prometheus text to `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * OpenTelemetry's standard variables: traces are exported over OTLP/HTTP only when one of the
     * endpoints is set (the traces one is the full URL, the other the base of /v1/traces).
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .optional(),
    OTEL_SERVICE_NAME: z.string().min(1).default("cartner"),
  })
  // Runs even when a variable above failed, so every problem is reported at once; the values may
  // then be unparsed strings.
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === "production" && !env.JWT_SECRET) {
        ctx.addIssue({
          code: "custom",
          path: ["JWT_SECRET"],
          message: "is required in production",
        });
      }
      if (env.NODE_ENV === "production" && !env.SMTP_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["SMTP_URL"],
          message: "is required in production (the dev outbox is off there)",
        });
      }
      if (!env.VAPID_PUBLIC_KEY !== !env.VAPID_PRIVATE_KEY) {
        ctx.addIssue({
          code: "custom",
          path: [env.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY"],
          message: "is needed too: set both VAPID keys or neither",
        });
      }
      const publicUrl = env.PUBLIC_URL && bareOrigin(env.PUBLIC_URL);
      const appOrigin = originOf(env.APP_ORIGIN);
      if (publicUrl && appOrigin && publicUrl !== appOrigin) {
        ctx.addIssue({
          code: "custom",
          path: ["APP_ORIGIN"],
          message: "is the older name of PUBLIC_URL and names another origin: set only PUBLIC_URL",
        });
      }
    },
    { when: () => true },
  );

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  /** Set: node-postgres pool. Unset: embedded PGlite in dataDir ("memory://" keeps it in memory). */
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The public origin (no trailing slash): the base of image, avatar and page URLs. */
  publicUrl: string;
  /**
   * The origins CORS and the live socket allow: publicUrl's first, then ALLOWED_ORIGINS (a loopback
   * one also under the other loopback names: lib/origin.ts).
   */
  allowedOrigins: string[];
  logLevel: string;
  webDist: string;
  trustProxy: boolean;
  authRateLimit: number;
  /** API requests per minute per account (signed in) or per address (not). */
  rateLimit: number;
  /** Signed-in API requests per minute per address, every account together. */
  rateLimitPerAddress: number;
  /** Unset: on for the embedded database, off on PostgreSQL (decision 007). */
  processCaches: boolean | undefined;
  /** Web Push's VAPID keys when set; otherwise derived from the server secret (lib/secrets.ts). */
  vapid: { publicKey: string; privateKey: string } | undefined;
  /** The VAPID subject push services may contact (mailto: or https:). */
  vapidSubject: string;
  /** Push services whose endpoints may be http or on a local address (PUSH_SERVICE_ORIGINS). */
  pushServiceOrigins: string[];
  /** Origins the catalog import fetches pictures from as given (CATALOG_IMAGE_ORIGINS). */
  catalogImageOrigins: string[];
  /** The currency of every amount (CURRENCY, ISO 4217, default USD). */
  currency: string;
  /** The bearer token GET /metrics asks for; unset, /metrics is 404. */
  metricsToken: string | undefined;
  /** Where traces go (OTLP/HTTP), and the service they name; unset, tracing is off. */
  otel: { tracesUrl: string; serviceName: string } | undefined;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.problems = problems;
  }
}

/** The only reader of process.env. Reports every bad variable at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as in most deployment tools.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "env"} ${issue.message}`),
    );
  }
  const e = parsed.data;
  const publicUrl = e.PUBLIC_URL ?? new URL(e.APP_ORIGIN ?? `http://localhost:${e.PORT}`).origin;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR === "memory://" ? e.DATA_DIR : path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    allowedOrigins: [...new Set([publicUrl, ...(e.ALLOWED_ORIGINS ?? [])])],
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY,
    authRateLimit: e.AUTH_RATE_LIMIT,
    rateLimit: e.RATE_LIMIT,
    rateLimitPerAddress: e.RATE_LIMIT_PER_ADDRESS ?? 10 * e.RATE_LIMIT,
    processCaches: e.PROCESS_CACHES,
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: e.VAPID_SUBJECT ?? defaultVapidSubject(publicUrl, e.MAIL_FROM),
    pushServiceOrigins: e.PUSH_SERVICE_ORIGINS ?? [],
    catalogImageOrigins: e.CATALOG_IMAGE_ORIGINS ?? [],
    currency: e.CURRENCY,
    metricsToken: e.METRICS_TOKEN,
    otel: otelConfig(e),
  };
}

/** The traces URL OpenTelemetry's variables name (the signal's own one first), or off. */
function otelConfig(e: z.output<typeof EnvSchema>): Config["otel"] {
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const tracesUrl = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base && `${base}/v1/traces`);
  return tracesUrl ? { tracesUrl, serviceName: e.OTEL_SERVICE_NAME } : undefined;
}

/** PUBLIC_URL when it is https (push services refuse others), else the address MAIL_FROM names. */
function defaultVapidSubject(publicUrl: string, mailFrom: string): string {
  if (publicUrl.startsWith("https://")) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}
