import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export interface Secrets {
  /** Signs JWTs (HS256). */
  jwtKey: Uint8Array;
  /** Keys the HMAC of one-time codes, so a leaked table does not reveal them. */
  otpKey: Buffer;
  /** Seals invite-link tokens kept for their creator to show again (AES-256-GCM). */
  linkKey: Buffer;
  /** Keys the HMAC of requests kept with an Idempotency-Key (their bodies may hold passwords). */
  idempotencyKey: Buffer;
}

const SECRET_FILE = "jwt-secret";

/**
 * JWT_SECRET when set; otherwise a secret generated once into DATA_DIR and reused on every start,
 * so signed-in users stay signed in across restarts. In-memory data gets a throwaway secret.
 */
export async function loadSecrets(
  configured: string | undefined,
  dataDir: string,
): Promise<Secrets> {
  const secret = configured ?? (await readOrCreateSecret(dataDir));
  const master = Buffer.from(secret, "utf8");
  const derive = (label: string) =>
    Buffer.from(crypto.hkdfSync("sha256", master, Buffer.alloc(0), label, 32));
  return {
    jwtKey: new Uint8Array(derive("cartner jwt")),
    otpKey: derive("cartner otp"),
    linkKey: derive("cartner invite links"),
    idempotencyKey: derive("cartner idempotency"),
  };
}

async function readOrCreateSecret(dataDir: string): Promise<string> {
  if (dataDir === "memory://") return crypto.randomBytes(48).toString("base64url");
  const file = path.join(dataDir, SECRET_FILE);
  await fs.mkdir(dataDir, { recursive: true });
  try {
    // "wx" fails if the file exists, so two processes starting together cannot overwrite each other.
    await fs.writeFile(file, crypto.randomBytes(48).toString("base64url"), {
      flag: "wx",
      mode: 0o600,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = (await fs.readFile(file, "utf8")).trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters`);
  return secret;
}
