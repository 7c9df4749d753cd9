/**
 * The permissions table: which session role (or order part) may do each action,
 * as data. The server's gates, the SQL functions' tests, the authorization test and the web's
 * buttons all read it, so a change to a rule is one edit here plus its test.
 *
 * Zod-free on purpose: the web reads it on pages of its first load (docs/decisions/008).
 */

/** A member's role in a session; "pending" is a join request waiting for the creator. */
export const SESSION_ROLES = ["creator", "participant", "viewer", "pending"] as const;
export type Role = (typeof SESSION_ROLES)[number];
/**
 * A caller's part in an order: the payee (the creator, who runs the order and by default paid the
 * shop), a payer (someone else the payee named as having paid part of the shop), or a member with
 * a share. Everyone else, session members without a share included, is a stranger to the order
 * and gets 404.
 */
export const ORDER_ROLES = ["payee", "payer", "sharer"] as const;
export type OrderRole = (typeof ORDER_ROLES)[number];

/**
 * An account's roles: what a person may do across the deployment, not within one session. The
 * operator runs the catalog (`npm run operator -- grant EMAIL`).
 */
export const ACCOUNT_ROLES = ["operator"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/**
 * The callers of an account-wide action: someone with one of the account roles, or "user", a
 * signed-in account without the role (refused 403; nobody signed in gets 401 before any rule).
 */
export type AccountCaller = AccountRole | "user";
export const ACCOUNT_CALLERS: readonly AccountCaller[] = [...ACCOUNT_ROLES, "user"];

/**
 * Whoever holds a look-only link that still works (not revoked, not expired, its session active):
 * no account, and no part in the session beyond seeing its list. Anyone with the link is this
 * caller, signed in or not; anyone with a link that no longer works is a stranger.
 */
export const LINK_ROLES = ["look"] as const;
export type LinkRole = (typeof LINK_ROLES)[number];
/** The callers of the link's one action. */
export const LINK_CALLERS: readonly (LinkRole | "stranger")[] = [...LINK_ROLES, "stranger"];

/** Who is asking, as the table sees it: a role, or nobody in the session (or order) at all. */
export type Caller = Role | OrderRole | AccountCaller | LinkRole | "stranger";
export type SessionCaller = Role | "stranger";
export type OrderCaller = OrderRole | "stranger";
/** The callers of a session's actions. */
export const CALLERS: readonly SessionCaller[] = [...SESSION_ROLES, "stranger"];
/** The callers of an order's actions. */
export const ORDER_CALLERS: readonly OrderCaller[] = [...ORDER_ROLES, "stranger"];

/** Roles that see a session (pending requesters and strangers get 404, so ids reveal nothing). */
export const MEMBER_ROLES = ["creator", "participant", "viewer"] as const satisfies Role[];
/** The roles an invite (by email or link) gives. */
export const INVITE_ROLES = ["participant", "viewer"] as const satisfies Role[];

const CREATOR_ONLY = "Only the session's creator can do that.";
const VIEWERS_READ_ONLY = "Viewers can see the cart but not change it.";
const OPERATORS_ONLY = "Only the catalog's operators can do that.";

export interface Rule {
  /** The roles allowed to do it. */
  readonly allow: readonly (Role | OrderRole | AccountRole | LinkRole)[];
  /** What a member (creator, participant, viewer) outside `allow` is told: 403 with this message. */
  readonly forbidden?: string;
  /** Per-role answers that are not 403, such as a creator who may not leave (409). */
  readonly instead?: Partial<
    Record<Role | OrderRole | AccountCaller, { status: 409; message: string }>
  >;
  /** The viewer's 403 message when it differs from `forbidden`. */
  readonly viewer?: string;
  /**
   * When a session write may happen: "active" (the default) while the session is active; "open
   * cart" while its cart is open too, that is not closed by the session's deadline.
   */
  readonly needs?: "active" | "open cart";
  /**
   * More roles the rule allows in a session whose creator opened the action to its members, and
   * the session setting that opens it (`checkoutBy: "members"`, which the Couple preset sets).
   * The gate reads the setting under the write's lock (lock_session()).
   */
  readonly opened?: { readonly by: OpenSetting; readonly allow: readonly Role[] };
}

/**
 * The session settings that open an action to more roles (see `Rule.opened`): "checkoutBy" is
 * open when the session's `checkoutBy` is "members"; "approver" is open to a caller the creator
 * named among the session's `approvers`.
 */
export const OPEN_SETTINGS = ["checkoutBy", "approver"] as const;
export type OpenSetting = (typeof OPEN_SETTINGS)[number];

/**
 * The settings a session has open for the caller `userId`, as the gate reads them (none by
 * default).
 */
export function openSettings(
  session: { checkoutBy?: string | null; approvers?: readonly string[] | null },
  userId?: string | null,
): OpenSetting[] {
  const open: OpenSetting[] = session.checkoutBy === "members" ? ["checkoutBy"] : [];
  if (userId != null && session.approvers?.includes(userId)) open.push("approver");
  return open;
}

export const PERMISSIONS = {
  /** See the session, its cart and summary (the passcode: `session.passcode`). */
  "session.read": { allow: MEMBER_ROLES },
  /** See the passcode in the session's answer (viewers get it hidden, not refused). */
  "session.passcode": { allow: ["creator", "participant"] },
  "session.edit": { allow: ["creator"], forbidden: CREATOR_ONLY },
  "session.end": { allow: ["creator"], forbidden: CREATOR_ONLY },
  "session.invite": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** List, approve and reject join requests. */
  "session.decideJoin": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** See pending join requests among a session's members (others see members and themselves). */
  "session.seeJoinRequests": { allow: ["creator"] },
  /** Leave; a pending requester withdraws. The creator must end the session instead. */
  "session.leave": {
    allow: ["participant", "viewer", "pending"],
    instead: {
      creator: { status: 409, message: "The creator cannot leave; end the session instead." },
    },
  },
  /** Choose how the cart's cost is split. */
  "session.splitPolicy": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** Change another member's role or budget, or remove them. */
  "session.manageMembers": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** Create, list and revoke invite links (look-only links included). */
  "session.links": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /**
   * View by link: see the cart's lines (name, quantity, picture, note) and total, live, through a
   * look-only link; nothing about the members, no private line. Members see the cart as members.
   */
  "session.viewByLink": {
    allow: ["look"],
    forbidden: "Members see the cart itself; a look-only link is for someone without an account.",
  },
  /** Hand the session over to a participant (the creator becomes a participant). */
  "session.transfer": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** A new session code (and passcode); members keep their access. */
  "session.rotateCode": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** Make the session repeat, change its rule, or end its series. */
  "session.series": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /** Set one's own budget (a cap on one's own share). */
  "member.ownBudget": { allow: ["creator", "participant", "viewer"] },
  /** Mark oneself done ("I'm done"). */
  "member.ready": {
    allow: ["creator", "participant"],
    viewer: "Viewers do not take part in the cart.",
  },
  "cart.add": { allow: ["creator", "participant"], viewer: VIEWERS_READ_ONLY, needs: "open cart" },
  /** See what the group bought before, offered for the cart ("buy again"). */
  "cart.buyAgain": { allow: MEMBER_ROLES },
  /** Change the quantity of, or remove, a line the caller added. */
  "cart.changeOwnLine": {
    allow: ["creator", "participant"],
    viewer: VIEWERS_READ_ONLY,
    needs: "open cart",
  },
  /** The same on anyone's line (sharing a line included: its adder, or this). */
  "cart.changeAnyLine": {
    allow: ["creator"],
    forbidden: "You can change only the items you added.",
    viewer: VIEWERS_READ_ONLY,
    needs: "open cart",
  },
  /**
   * Hide a line from chosen members (a private line): its adder (a creator or participant) or the
   * creator on anyone's line (`cart.seePrivate`); a participant on another's line is refused.
   */
  "cart.hideLine": {
    allow: ["creator", "participant"],
    forbidden: "Only the item's adder or the session's creator can hide it.",
    viewer: VIEWERS_READ_ONLY,
    needs: "open cart",
  },
  /**
   * See every private line and whom it is hidden from, hide anyone's line, and never be hidden
   * from: the creator. (A line's adder sees their own line and its hiddenFrom too.)
   */
  "cart.seePrivate": {
    allow: ["creator"],
    forbidden: "Only the item's adder or the session's creator can hide it.",
  },
  /** Acknowledge a line's changed price: any member who pays. */
  "cart.acknowledgePrice": {
    allow: ["creator", "participant"],
    viewer: VIEWERS_READ_ONLY,
    needs: "open cart",
  },
  "cart.clear": {
    allow: ["creator"],
    forbidden: CREATOR_ONLY,
    viewer: VIEWERS_READ_ONLY,
    needs: "open cart",
  },
  /** Deleting a cart ends its session (the cart stays as history). */
  "cart.delete": { allow: ["creator"], forbidden: CREATOR_ONLY, viewer: VIEWERS_READ_ONLY },
  /** Set, move, clear or reopen the session's deadline. */
  "session.deadline": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /**
   * Turn the cart into an order and end the session: the creator, and the participants too where
   * the session lets its members check out (`checkoutBy: "members"`; the Couple preset).
   */
  "session.checkout": {
    allow: ["creator"],
    forbidden: "Only the session's creator checks out this session.",
    viewer: "Viewers do not take part in the cart.",
    opened: { by: "checkoutBy", allow: ["participant"] },
  },
  /** Name the members who may approve "ask first" lines. */
  "session.approvers": { allow: ["creator"], forbidden: CREATOR_ONLY },
  /**
   * Approve or decline a line waiting for approval (an "ask first" budget): the creator, and the
   * members the creator named as approvers. Also after the deadline: the request came before it.
   */
  "cart.approve": {
    allow: ["creator"],
    forbidden: "Only the session's creator and the approvers they name decide on waiting items.",
    opened: { by: "approver", allow: ["participant", "viewer"] },
  },
  /** See an order, its book and its receipt. */
  "order.read": { allow: ["payee", "payer", "sharer"] },
  /**
   * Say one has paid what one owes on the order (to each payer one owes; the payee may owe the
   * other payers too). Nothing owed: nothing changes.
   */
  "order.pay": { allow: ["payee", "payer", "sharer"] },
  /**
   * See the payee's payment details and what to pay them: only members who owe on the order, so
   * nobody else learns the payee's IBAN.
   */
  "order.payInfo": {
    allow: ["sharer", "payer"],
    forbidden: "You are the payee: the members who owe you see your payment details here.",
  },
  /**
   * Settle what someone owes oneself on the order (confirm their payment, cash, write-off): a
   * member with a share, or another payer without one who owes back what they were paid beyond
   * their part; each who paid the shop settles only their own part. A payee who named other payers
   * and not themself paid nothing: to this action they are a member with a share (refused).
   */
  "order.confirm": {
    allow: ["payee", "payer"],
    forbidden: "Only those who paid the shop confirm payments to them.",
  },
  /** Send the checkout mail again to members it did not reach. */
  "order.mail": {
    allow: ["payee"],
    forbidden: "Only the payee sends the checkout mail again.",
  },
  /** Record what the shop delivered and charged: the order re-splits. */
  "order.adjust": {
    allow: ["payee"],
    forbidden: "Only the payee records changes to the order.",
  },
  /** Dispute an adjustment (the payee records them, so disputes them by changing them). */
  "order.dispute": {
    allow: ["sharer", "payer"],
    forbidden: "Only members with a share dispute an adjustment.",
  },
  /** Show the order's private lines to every member of the session. */
  "order.reveal": {
    allow: ["payee"],
    forbidden: "Only the payee shows the private items to everyone.",
  },
  /** Say who paid the shop and how much (several payers). */
  "order.payers": {
    allow: ["payee"],
    forbidden: "Only the payee says who paid the shop.",
  },
  /**
   * Record a transfer to someone: between two people, "sharer" is the one who owes on balance
   * (who pays), "payee" the one owed, "stranger" someone with nothing open with the caller.
   */
  "order.transfer": {
    allow: ["sharer"],
    forbidden: "Only the one who owes records a transfer: they owe you, so they record it.",
  },
  /** See the whole catalog (unavailable products included) and the log of its changes. */
  "catalog.read": { allow: ["operator"], forbidden: OPERATORS_ONLY },
  /** Add a product, change one (taking it off sale included), or replace its picture. */
  "catalog.edit": { allow: ["operator"], forbidden: OPERATORS_ONLY },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof PERMISSIONS;

/** What a session write needs of the session besides the role (see `Rule.needs`). */
export function needsOf(action: Action): "active" | "open cart" {
  return (PERMISSIONS[action] as Rule).needs ?? "active";
}

/**
 * The gate's answers to "may this person do this to this session now" (the database's
 * `session_gate()` decides, from this table): allowed, or why not: not a member (pending included
 * unless the action allows pending), the role, the session ended, its cart checked out as an
 * order, or the cart closed by the session's deadline.
 */
export const GATE_VERDICTS = [
  "ok",
  "not_member",
  "role",
  "ended",
  "checked_out",
  "locked",
] as const;
export type GateVerdict = (typeof GATE_VERDICTS)[number];
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

/** The actions an account role allows (the catalog's), as opposed to a role in a session or order. */
export const ACCOUNT_ACTIONS = ACTIONS.filter((action) =>
  PERMISSIONS[action].allow.every((role) => (ACCOUNT_ROLES as readonly string[]).includes(role)),
);

/** Who an account is to an account-wide action: the first of its roles that allows it, or "user". */
export function accountCaller(roles: readonly string[], action: Action): AccountCaller {
  return (ACCOUNT_ROLES.find((role) => roles.includes(role) && can(role, action)) ??
    "user") as AccountCaller;
}

/**
 * Whether the role may do the action; `open` are the settings the session has open
 * (openSettings()), which widen a rule that has `opened`.
 */
export function can(
  role: Caller | null | undefined,
  action: Action,
  open: readonly OpenSetting[] = [],
): boolean {
  if (role == null) return false;
  const rule: Rule = PERMISSIONS[action];
  if ((rule.allow as readonly string[]).includes(role)) return true;
  return (
    rule.opened !== undefined &&
    open.includes(rule.opened.by) &&
    (rule.opened.allow as readonly string[]).includes(role)
  );
}

/** What the API answers a caller refused by the table. */
export interface Refusal {
  status: 403 | 404 | 409;
  /** Absent for 404: the caller names what was not found ("Session not found", ...). */
  message?: string;
}

/**
 * null when the role may do it; otherwise the answer: 404 for anyone who is not a member (pending
 * included, unless the action allows pending), a per-role 409 where the table says so, else 403.
 */
export function refusal(
  role: Caller | null | undefined,
  action: Action,
  open: readonly OpenSetting[] = [],
): Refusal | null {
  if (can(role, action, open)) return null;
  const rule: Rule = PERMISSIONS[action];
  // A look-only link shows the list and nothing else: to everything else it is a stranger.
  if (role == null || role === "stranger" || role === "pending" || role === "look") {
    return { status: 404 };
  }
  const instead = rule.instead?.[role];
  if (instead) return instead;
  const message =
    (role === "viewer" ? rule.viewer : undefined) ??
    rule.forbidden ??
    "Your role in this session does not allow that.";
  return { status: 403, message };
}
