import { useState } from "react";
import { ImageOff } from "lucide-react";
import { cn } from "../../lib/cn.ts";
import { photoSrcSet } from "../../lib/product-photos.ts";

/**
 * Catalog images are square (a drawn SVG, or a photo in two WebP sizes); the intrinsic size lets
 * the browser reserve the space.
 */
const INTRINSIC_SIZE = 400;
/** How wide the image shows, for picking a photo's size: a grid card's by default. */
const CARD_SIZES = "(min-width: 1024px) 20rem, 50vw";

interface ProductImageProps {
  src: string;
  /** The product's name for a meaningful image, "" when the name is right beside it in a link. */
  alt: string;
  /** Above-the-fold images (the product page's main one, the grid's first row) load eagerly. */
  eager?: boolean;
  /** The page's most prominent image (its Largest Contentful Paint) is fetched first. */
  priority?: boolean;
  /** The `sizes` of a photo's srcset: how wide it shows at each viewport (a grid card's). */
  sizes?: string;
  className?: string;
}

/** A product photo in a fixed square frame, lazily loaded, with a quiet stand-in if it fails. */
export function ProductImage({
  src,
  alt,
  eager = false,
  priority = false,
  sizes = CARD_SIZES,
  className,
}: ProductImageProps) {
  const srcSet = photoSrcSet(src);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const frame = cn("aspect-square w-full overflow-hidden bg-slate-100", className);
  if (failedSrc === src) {
    return (
      <div
        className={cn(frame, "flex items-center justify-center text-slate-400")}
        {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}
      >
        <ImageOff aria-hidden="true" className="size-1/4" />
      </div>
    );
  }
  return (
    <div className={frame}>
      <img
        src={src}
        {...(srcSet ? { srcSet, sizes } : {})}
        alt={alt}
        width={INTRINSIC_SIZE}
        height={INTRINSIC_SIZE}
        loading={eager || priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
        decoding="async"
        className="size-full object-cover"
        onError={() => setFailedSrc(src)}
      />
    </div>
  );
}
