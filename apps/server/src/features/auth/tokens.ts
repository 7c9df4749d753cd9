import { ACCESS_TOKEN_TTL_S, ErrorCode } from "@cartner/contract";
import { errors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../../lib/clock.ts";
import { unauthorized } from "../../lib/errors.ts";

export interface TokenClaims {
  userId: string;
  sid: string;
}

/**
 * Signs and checks access tokens: a created object, since it holds the signing key and the tokens
 * already verified (until their expiry), built once per app.
 */
export function createTokenService(key: Uint8Array, clock: Clock) {
  const seconds = () => Math.floor(clock.now().getTime() / 1000);

  async function sign(claims: TokenClaims): Promise<string> {
    const iat = seconds();
    return new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
      .sign(key);
  }

  /**
   * Checks signature and claims. With allowExpired (refresh-token only), a correctly signed token
   * past its 15 minutes is still accepted: the auth-session row decides whether it may be renewed.
   */
  // Tokens already verified, until their expiry: a map lookup instead of an HMAC per request.
  const verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();

  /** The claims of a token verified before and not expired, without a promise; else undefined. */
  function known(token: string): TokenClaims | undefined {
    const found = verified.get(token);
    return found && found.expiresAt > clock.now().getTime() ? found.claims : undefined;
  }

  async function verify(token: string, { allowExpired = false } = {}): Promise<TokenClaims> {
    const remembered = known(token);
    if (remembered) return remembered;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        currentDate: clock.now(),
      });
      const claims = claimsOf(payload);
      if (verified.size >= 10_000) verified.clear();
      verified.set(token, { claims, expiresAt: (payload.exp ?? 0) * 1000 });
      return claims;
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        if (allowExpired) return claimsOf(error.payload);
        throw unauthorized("Your session has expired", ErrorCode.TOKEN_EXPIRED);
      }
      throw unauthorized("Invalid token");
    }
  }

  return { sign, verify, known };
}

function claimsOf(payload: { sub?: unknown; sid?: unknown }): TokenClaims {
  if (typeof payload.sub !== "string" || typeof payload.sid !== "string") {
    throw unauthorized("Invalid token");
  }
  return { userId: payload.sub, sid: payload.sid };
}

export type TokenService = ReturnType<typeof createTokenService>;
