import type { Sharp, SharpOptions } from "sharp";

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | undefined;

/**
 * sharp, loaded the first time a picture is encoded: its native image library adds about 27 MB to
 * the server's resident memory, which a server that never receives an upload (most of them, most
 * of the time) should not carry.
 */
export function loadSharp(): Promise<SharpFactory> {
  return (loaded ??= import("sharp").then((module) => module.default));
}
