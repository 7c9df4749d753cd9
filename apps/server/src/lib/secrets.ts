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
  /**
   * Web Push's VAPID key pair (base64url), derived like the others: stable across restarts and
   * the same on every instance that shares the secret (VAPID_* in the environment overrides it).
   */
  vapid: { publicKey: string; privateKey: string };
}

const SECRET_FILE = "jwt-secret";

/** Where the generated secret is kept (backups carry it, restores put it back). */
export const secretFile = (dataDir: string) => path.join(dataDir, SECRET_FILE);

/**
 * JWT_SECRET when set; otherwise a secret generated once into DATA_DIR and reused on every start,
 * so signed-in users stay signed in (and devices stay subscribed to Web Push) across restarts.
 * In-memory data gets a throwaway secret.
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
    vapid: vapidKeysFrom(master),
  };
}

/** P-256's group order: a private key is a number from 1 to N - 1. */
const P256_ORDER = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

/**
 * A P-256 key pair from the master secret (HKDF, the next counter while the 32 bytes are not a
 * valid private key, which happens with a chance of about 2^-32).
 */
function vapidKeysFrom(master: Buffer): { publicKey: string; privateKey: string } {
  for (let counter = 0; ; counter++) {
    const candidate = Buffer.from(
      crypto.hkdfSync("sha256", master, Buffer.alloc(0), `cartner vapid ${counter}`, 32),
    );
    const value = BigInt(`0x${candidate.toString("hex")}`);
    if (value === 0n || value >= P256_ORDER) continue;
    const ecdh = crypto.createECDH("prime256v1");
    ecdh.setPrivateKey(candidate);
    return {
      publicKey: ecdh.getPublicKey().toString("base64url"),
      privateKey: candidate.toString("base64url"),
    };
  }
}

async function readOrCreateSecret(dataDir: string): Promise<string> {
  if (dataDir === "memory://") return crypto.randomBytes(48).toString("base64url");
  const file = secretFile(dataDir);
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
