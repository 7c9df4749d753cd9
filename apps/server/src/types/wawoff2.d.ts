declare module "wawoff2" {
  /** WOFF2 to TrueType/OpenType (Google's woff2, compiled to WebAssembly). */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
  export function compress(sfnt: Uint8Array): Promise<Uint8Array>;
}
