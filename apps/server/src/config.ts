import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where `npm run build` puts the web app; served when it exists. */
const defaultWebDist = path.resolve(here, "../../web/dist");

const boolish = z
  .enum(["true", "false", "1", "0", ""])
  .transform((value) => value === "true" || value === "1");

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
    /** Unset: http://localhost:<PORT>, where a developer opens the app. */
    APP_ORIGIN: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .optional(),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    WEB_DIST: z.string().min(1).default(defaultWebDist),
    TRUST_PROXY: boolish.default(false),
    /** Requests per minute per IP on the sign-in endpoints (register, login, verify, resend). */
    AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(30),
    /** Requests per minute per IP on everything else. */
    RATE_LIMIT: z.coerce.number().int().positive().default(600),
    /**
     * The per-process caches (auth sessions, member reads): on by default; on PostgreSQL every
     * instance keeps its own true over NOTIFY (decision 007).
     */
    PROCESS_CACHES: boolish.optional(),
  })
  .superRefine((env, ctx) => {
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
  });

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
  appOrigin: string;
  logLevel: string;
  webDist: string;
  trustProxy: boolean;
  authRateLimit: number;
  rateLimit: number;
  /** Unset: on for the embedded database, off on PostgreSQL (decision 007). */
  processCaches: boolean | undefined;
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
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR === "memory://" ? e.DATA_DIR : path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    appOrigin: new URL(e.APP_ORIGIN ?? `http://localhost:${e.PORT}`).origin,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY,
    authRateLimit: e.AUTH_RATE_LIMIT,
    rateLimit: e.RATE_LIMIT,
    processCaches: e.PROCESS_CACHES,
  };
}
