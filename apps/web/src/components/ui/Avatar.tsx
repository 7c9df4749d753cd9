import { useState } from "react";
import { avatarUrl } from "../../lib/avatars.ts";
import { cn } from "../../lib/cn.ts";

export interface AvatarProps {
  /** Seed for the generated avatar (an email, a name, a session code). */
  seed: string;
  /** Whose avatar it is: gives the initials shown when the image cannot load. */
  name: string;
  /** Alternative text; empty (decorative) unless the avatar is the only thing naming someone. */
  alt?: string;
  src?: string;
  className?: string;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? "").join("") || "?";
}

export function Avatar({ seed, name, alt = "", src, className }: AvatarProps) {
  const url = src ?? avatarUrl(seed);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const classes = cn(
    "inline-flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-100 ring-2 ring-white",
    className,
  );
  if (failedUrl === url) {
    return (
      <span
        className={cn(classes, "text-sm font-semibold text-primary-800")}
        {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}
      >
        {initials(name)}
      </span>
    );
  }
  return (
    <img
      src={url}
      alt={alt}
      loading="lazy"
      decoding="async"
      className={cn(classes, "object-cover")}
      onError={() => setFailedUrl(url)}
    />
  );
}
