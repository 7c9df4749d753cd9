/** Time source, injectable so tests can move time (OTP expiry, token lifetime). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
