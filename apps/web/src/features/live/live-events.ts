import { createElement } from "react";
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { toast } from "../../lib/toast.ts";
import {
  can,
  type Cart,
  type LiveEvent,
  type MyJoinRequest,
  type Session,
} from "@cartner/contract";
import { cartKeys, cartMutationKeys } from "../../api/carts.ts";
import { notificationKeys } from "../../api/notifications.ts";
import { orderKeys } from "../../api/orders.ts";
import { productKeys } from "../../api/products.ts";
import { fetchSession, sessionKeys } from "../../api/sessions.ts";
import type { SyncData } from "../../api/session-sync.ts";
import { navigateTo } from "../../lib/navigation.ts";
import { getUser } from "../../lib/storage.ts";
import { roleIn } from "../../shared/roles.ts";
import { LinkToast } from "./LinkToast.tsx";

export const INVITE_RECEIVED_MESSAGE = "You have a new session invite.";
export const JOIN_REQUEST_MESSAGE = "New join request for your session.";
export const REMOVED_MESSAGE = "You were removed from this session.";
export const SESSION_STARTED_MESSAGE = "The next session of your series has started.";
export const SESSION_STARTED_LINK = "Open the new session";
export const ORDER_PLACED_MESSAGE = "Your group checked out: the order and your share are ready.";
export const joinAcceptedMessage = (creatorName: string, sessionName: string) =>
  `${creatorName} accepted your request to join ${sessionName}.`;
export const joinDeclinedMessage = (sessionName: string) =>
  `Your request to join ${sessionName} was declined.`;
export const JOIN_ACCEPTED_LINK = "Open the session";
/** Most toasts stay 6 to 10 s: long enough to read, gone before they pile up. */
const LIVE_TOAST_AUTO_CLOSE_MS = 6000;

function invalidate(client: QueryClient, keys: QueryKey[]): void {
  for (const queryKey of keys) void client.invalidateQueries({ queryKey });
}

/** After (re)connecting: anything may have changed while no events arrived (prices too). */
export function invalidateAllLive(client: QueryClient): void {
  invalidate(client, [
    sessionKeys.all,
    cartKeys.all,
    orderKeys.all,
    notificationKeys.all,
    productKeys.all,
  ]);
}

/** The lists that show a session. */
const SESSION_LISTS: QueryKey[] = [sessionKeys.sync(), sessionKeys.mine()];

/**
 * Refetches the session, then the views only some roles may read (invite links, join requests)
 * if the caller's role, as the refetched session says, still allows them: after a hand-over the
 * old creator's open lobby must not ask for what only the creator may see.
 */
async function refreshSession(client: QueryClient, sessionId: string | undefined): Promise<void> {
  if (!sessionId) return;
  await client.invalidateQueries({ queryKey: sessionKeys.detail(sessionId) });
  const session = client.getQueryData<Session>(sessionKeys.detail(sessionId));
  const role = roleIn(session, getUser()?._id);
  if (can(role, "session.manageMembers")) invalidate(client, [sessionKeys.links(sessionId)]);
  if (session && can(role, "session.decideJoin")) {
    invalidate(client, [sessionKeys.joinRequests(session.sessionCode)]);
  }
}

/** The pages that show one session: the lobby, its edit page, its cart and its summary. */
function showsSession(client: QueryClient, pathname: string, sessionId: string): boolean {
  if (pathname.split("/").includes(sessionId)) return true;
  const cartId = /^\/cart\/id\/([^/]+)/.exec(pathname)?.[1];
  const cart = cartId ? client.getQueryData<Cart>(cartKeys.lookup("cart", cartId)) : undefined;
  return cart?.sessionId._id === sessionId;
}

/**
 * Removed from a session: pages of it go to the sessions list at once (not on the next click),
 * the session's cached views are dropped, and the toast names the session.
 */
async function leaveRemovedSession(client: QueryClient, sessionId: string): Promise<void> {
  const cached =
    client.getQueryData<Session>(sessionKeys.detail(sessionId)) ??
    client.getQueryData<SyncData>(sessionKeys.sync())?.sessions.find((s) => s._id === sessionId);
  // It stays until closed: the page the member was on is gone, and this is the only why.
  toast.warn(cached ? `You were removed from “${cached.sessionName}”.` : REMOVED_MESSAGE, {
    toastId: `removed-${sessionId}`,
    autoClose: false,
  });
  if (showsSession(client, window.location.pathname, sessionId)) await navigateTo("/sessions");
  for (const queryKey of [
    sessionKeys.detail(sessionId),
    sessionKeys.links(sessionId),
    sessionKeys.activity(sessionId),
    cartKeys.lookup("session", sessionId),
    cartKeys.summary(sessionId),
  ]) {
    client.removeQueries({ queryKey });
  }
  invalidate(client, [...SESSION_LISTS, cartKeys.list()]);
}

function cartViews(event: LiveEvent): QueryKey[] {
  const keys: QueryKey[] = [cartKeys.list()];
  if (event.cartId) keys.push(cartKeys.lookup("cart", event.cartId));
  if (event.sessionId) {
    keys.push(cartKeys.lookup("session", event.sessionId), cartKeys.summary(event.sessionId));
  }
  return keys;
}

/**
 * My join request was answered: say how, naming the session and its creator from my cached list
 * of waiting requests (read before it is refetched without it). An approved requester is a member
 * now, so without that list the session itself says; a declined one can no longer read it.
 */
function toastJoinAnswer(client: QueryClient, sessionId: string, approved: boolean): void {
  const request = client
    .getQueryData<MyJoinRequest[]>(sessionKeys.myJoinRequests())
    ?.find((r) => r.sessionId === sessionId);
  const options = {
    toastId: `join-${approved ? "accepted" : "declined"}-${sessionId}`,
    autoClose: 10_000,
  };
  if (!approved) {
    toast.info(joinDeclinedMessage(request?.sessionName ?? "a session"), options);
    return;
  }
  const show = (creatorName: string, sessionName: string) =>
    toast.success(
      createElement(LinkToast, {
        message: joinAcceptedMessage(creatorName, sessionName),
        to: `/session/${encodeURIComponent(sessionId)}`,
        label: JOIN_ACCEPTED_LINK,
      }),
      options,
    );
  if (request) {
    show(request.creator.name, request.sessionName);
    return;
  }
  client
    .fetchQuery({
      queryKey: sessionKeys.detail(sessionId),
      queryFn: ({ signal }) => fetchSession(sessionId, signal).then((body) => body.session),
    })
    .then((session) => show(session.creator.name, session.sessionName))
    .catch(() => {}); // gone again meanwhile: nothing to say
}

/** Refetches what the event names (live events carry no data; clients refetch) and toasts what concerns the user. */
export function applyLiveEvent(client: QueryClient, event: LiveEvent): void {
  const { sessionId } = event;
  switch (event.type) {
    case "cart.updated": {
      // While our own line changes are on their way, a refetch would undo their optimistic
      // update; the last of them refetches everything when it settles.
      const ownChangesPending = client.isMutating({ mutationKey: cartMutationKeys.writes }) > 0;
      if (!ownChangesPending) invalidate(client, cartViews(event));
      // Lobbies and session cards show the cart's total. Buy again leaves out what the cart
      // holds (drawn over the cart with our pending changes, so a refetch undoes none of them).
      invalidate(client, [
        ...(sessionId ? [sessionKeys.detail(sessionId)] : []),
        sessionKeys.mine(),
        cartKeys.buyAgainOf(event.cartId),
      ]);
      return;
    }
    case "member.joined":
    case "member.left": {
      // A join request of mine that the creator answered (my own withdrawal says nothing more).
      const answered = event.joinRequest === "approved" || event.joinRequest === "rejected";
      if (answered && sessionId && event.userId === getUser()?._id) {
        toastJoinAnswer(client, sessionId, event.joinRequest === "approved");
      }
      invalidate(client, [...SESSION_LISTS, sessionKeys.myJoinRequests(), sessionKeys.invites()]);
      void refreshSession(client, sessionId);
      return;
    }
    case "session.updated":
      // Accepting or rejecting an invite is announced this way too: the invite list changes.
      invalidate(client, [...SESSION_LISTS, sessionKeys.invites()]);
      void refreshSession(client, sessionId);
      return;
    case "member.removed":
      if (sessionId && event.userId !== undefined && event.userId === getUser()?._id) {
        void leaveRemovedSession(client, sessionId);
        return;
      }
      invalidate(client, [...SESSION_LISTS, cartKeys.all]);
      void refreshSession(client, sessionId);
      return;
    case "session.ended":
      invalidate(client, [...SESSION_LISTS, cartKeys.all]);
      void refreshSession(client, sessionId);
      return;
    case "order.placed":
      invalidate(client, [orderKeys.all, cartKeys.all, ...SESSION_LISTS]);
      void refreshSession(client, sessionId);
      // Whoever checked out is already on the order's page.
      if (event.orderId && !window.location.pathname.startsWith(`/orders/${event.orderId}`)) {
        toast.info(
          createElement(LinkToast, {
            message: ORDER_PLACED_MESSAGE,
            to: `/orders/${event.orderId}`,
            label: "View the order",
          }),
          {
            toastId: `order-${event.orderId}`,
            autoClose: LIVE_TOAST_AUTO_CLOSE_MS,
          },
        );
      }
      return;
    case "order.updated":
      // An adjustment can change what a line cost (Buy again offers a free line at what was
      // paid for it) or take it off the order: every cart's list reads the orders again.
      invalidate(client, [orderKeys.all, cartKeys.buyAgainOf()]);
      return;
    case "session.started":
      // A series' next session: it joins my lists, and the one it follows names it now.
      invalidate(client, [...SESSION_LISTS, cartKeys.list()]);
      if (event.fromSessionId) void refreshSession(client, event.fromSessionId);
      if (sessionId) {
        toast.info(
          createElement(LinkToast, {
            message: SESSION_STARTED_MESSAGE,
            to: `/session/${encodeURIComponent(sessionId)}`,
            label: SESSION_STARTED_LINK,
          }),
          { toastId: `started-${sessionId}`, autoClose: 10_000 },
        );
      }
      return;
    case "activity.created":
      if (sessionId) invalidate(client, [sessionKeys.activity(sessionId)]);
      return;
    case "line.pending":
    case "line.approved":
    case "line.declined":
      // A line waits for approval, or was decided: the cart it is in (its cart.updated comes
      // too, held back while my own changes are on their way; this one is mine to see at once).
      invalidate(client, cartViews(event));
      return;
    case "catalog.updated":
      // Products in one of my carts changed (price, availability, stock): the cart comes with its
      // own cart.updated; the products' pages and Buy again (prices now) show them anew.
      invalidate(client, [
        productKeys.lists(),
        ...(event.productIds ?? []).map((id) => productKeys.detail(id)),
        cartKeys.buyAgainOf(event.cartId),
      ]);
      return;
    case "invite.received":
      invalidate(client, [sessionKeys.invites()]);
      toast.info(INVITE_RECEIVED_MESSAGE, {
        toastId: "live-invite",
        autoClose: LIVE_TOAST_AUTO_CLOSE_MS,
      });
      return;
    case "notification.created":
      // The bell's count and the lists (the panel, the page) are one query.
      invalidate(client, [notificationKeys.list()]);
      return;
    case "joinrequest.created":
      // The lobby lists pending members from the session itself.
      invalidate(client, [
        sessionKeys.allJoinRequests(),
        ...(sessionId ? [sessionKeys.detail(sessionId)] : []),
      ]);
      toast.info(JOIN_REQUEST_MESSAGE, {
        toastId: "live-join-request",
        autoClose: LIVE_TOAST_AUTO_CLOSE_MS,
      });
      return;
  }
}

/**
 * Drops events that are not newer than one already handled for the same session (a duplicate or
 * late delivery), but for another type of event of the same version (the same commit). Versions come from events only, not from cached data: a query refetched after
 * a commit says nothing about the other queries that commit changed. Reset on every ready, when
 * everything is refetched anyway.
 */
export function createVersionFilter() {
  /** Per session, the newest version handled and the event types handled at it. */
  const newest = new Map<string, { version: number; types: Set<LiveEvent["type"]> }>();
  return {
    accept(event: LiveEvent): boolean {
      if (event.sessionId === undefined || event.version === undefined) return true;
      const seen = newest.get(event.sessionId);
      if (seen !== undefined && event.version < seen.version) return false;
      // One commit may announce itself twice (a split change: session.updated, then cart.updated
      // for the shares and ready marks); each type refetches its own views.
      if (seen !== undefined && event.version === seen.version) {
        if (seen.types.has(event.type)) return false;
        seen.types.add(event.type);
        return true;
      }
      newest.set(event.sessionId, { version: event.version, types: new Set([event.type]) });
      return true;
    },
    reset(): void {
      newest.clear();
    },
  };
}
