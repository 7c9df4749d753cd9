/** Business constants, in one place, used by server and web. */
export const OTP_LENGTH = 6;
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_MAX_FAILURES_PER_HOUR = 10;
export const OTP_RESEND_INTERVAL_MS = 60 * 1000;

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 80;
export const EMAIL_MAX_LENGTH = 254;

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const AUTH_SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const AUTH_SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The web client refreshes the token every 14 minutes, only after user activity. */
export const TOKEN_REFRESH_INTERVAL_MS = 14 * 60 * 1000;
export const SESSION_SYNC_INTERVAL_MS = 5 * 1000;

export const SESSION_TYPES = ["Couple", "Friends", "Family", "Solo"] as const;
export const SESSION_PARTICIPANT_OPTIONS = ["1", "2", "3+"] as const;

export const FEE_RATE_PERCENT = 1;
export const TAX_RATE_PERCENT = 13;

export const TOAST_AUTO_CLOSE_MS = 5000;
export const SIGN_IN_WARNING_AUTO_CLOSE_MS = 7000;
export const TESTIMONIAL_SCROLL_STEP_PX = 320;
export const PROFILE_EMPTY_REDIRECT_MS = 2000;

// Limits of sessions and carts. Kept here, apart from the zod schemas that use them, so that the
// web app's first load can import them without zod.
export const SESSION_NAME_MAX_LENGTH = 80;
export const PASSCODE_MAX_LENGTH = 32;
export const SESSION_CODE_LENGTH = 8;
export const BUDGET_MAX = 1_000_000;
/** Avatars shown on a session card before '+N'. */
export const SESSION_CARD_AVATARS = 3;
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 99;
/** A free line (something not in the catalog): its name's length, its estimate's top. */
export const FREE_LINE_NAME_MAX_LENGTH = 120;
export const FREE_LINE_ESTIMATE_MAX = 100_000;
/** A note on a line for whoever shops ("ripe ones"). */
export const LINE_NOTE_MAX_LENGTH = 200;
/** The message an approver may give with approving or declining a waiting line. */
export const APPROVAL_MESSAGE_MAX_LENGTH = 200;
/** What the shopper may take when a line's item is not there: anything, something similar, nothing. */
export const LINE_SUBSTITUTES = ["any", "similar", "none"] as const;
export type LineSubstitute = (typeof LINE_SUBSTITUTES)[number];
/**
 * How long the member who removed a cart line may put it back as it was (the server's limit;
 * the web offers Undo for UNDO_TOAST_MS, and a queued offline undo may arrive later).
 */
export const RESTORE_WINDOW_SECONDS = 120;
/** How long the web's toast after a line's removal offers Undo. */
export const UNDO_TOAST_MS = 6000;

// The catalog (the products page's filters and price slider), kept apart from the product
// schemas for the same reason: the products page imports them without zod.
/** The marketplace's categories. */
export const SHOP_CATEGORIES = [
  "Electronics",
  "Clothing",
  "Home & Kitchen",
  "Beauty",
  "Sports & Outdoors",
] as const;
/** The Cartner Express categories. */
export const EXPRESS_CATEGORIES = ["Food", "Drinks", "Groceries"] as const;
export const PRODUCT_CATEGORIES = [...SHOP_CATEGORIES, ...EXPRESS_CATEGORIES] as const;
export const PRODUCT_SORTS = ["relevance", "price_asc", "price_desc", "rating"] as const;
/** The price slider: 0 to 1000 with a minimum gap of 10. */
export const PRICE_SLIDER_MIN = 0;
export const PRICE_SLIDER_MAX = 1000;
export const PRICE_SLIDER_GAP = 10;

// Deadlines, kept apart from their schemas so that the lobby and
// the cart page can import them without zod.
/** A reminder is 1 minute to 7 days (10,080 minutes) before the deadline. */
export const REMIND_MINUTES_MIN = 1;
export const REMIND_MINUTES_MAX = 7 * 24 * 60;
/** At most this many reminders per deadline. */
export const DEADLINE_REMINDERS_MAX = 5;
/** The reminders a new deadline gets when none are named: 24 h and 1 h before. */
export const DEFAULT_REMIND_AT = [24 * 60, 60] as const;
/** The reminders the lobby offers (minutes before): 1 week, 2 days, 24 h, 3 h, 1 h, 15 min. */
export const REMIND_CHOICES = [7 * 24 * 60, 2 * 24 * 60, 24 * 60, 3 * 60, 60, 15] as const;
/** How far ahead a deadline may be set: a year. */
export const DEADLINE_MAX_DAYS_AHEAD = 366;

/** Lists that grow with time are read a page at a time (pages.ts): this many items by default, at most the second. */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;
