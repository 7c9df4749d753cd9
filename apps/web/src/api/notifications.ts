import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MarkReadBody, Notification, NotificationPreferences } from "@cartner/contract";
import { call } from "../lib/call.ts";
import type { Reactions } from "../lib/mutation-reactions.ts";

// The reader's notifications and their choices of kind, channel and quiet hours.

export function fetchNotifications(signal?: AbortSignal) {
  return call("GET /api/notifications", { query: { limit: 50 } }, signal ? { signal } : undefined);
}

export function markNotificationsRead(body: MarkReadBody) {
  return call("POST /api/notifications/read", { body });
}

export function fetchNotificationPreferences(signal?: AbortSignal) {
  return call("GET /api/users/me/notification-preferences", {}, signal ? { signal } : undefined);
}

export function saveNotificationPreferences(preferences: NotificationPreferences) {
  return call("PUT /api/users/me/notification-preferences", { body: preferences });
}

export const notificationKeys = {
  all: ["notifications"] as const,
  list: () => ["notifications", "list"] as const,
  preferences: () => ["notifications", "preferences"] as const,
};

export function notificationsQuery() {
  return queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => fetchNotifications(signal),
  });
}

export function notificationPreferencesQuery() {
  return queryOptions({
    queryKey: notificationKeys.preferences(),
    queryFn: ({ signal }) => fetchNotificationPreferences(signal),
  });
}

/** The list, newest first, and the unread count (of all, not only the listed ones). */
export function useNotifications() {
  return useQuery(notificationsQuery());
}

export function useUnreadCount() {
  return useQuery({ ...notificationsQuery(), select: (body) => body.unread });
}

type ListBody = { notifications: Notification[]; unread: number };

/** Marks some (ids) or all read; the list shows it at once and the server's count follows. */
export function useMarkRead(reactions: Reactions<{ unread: number }, MarkReadBody> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: markNotificationsRead,
    onMutate: (body, context) => {
      const now = new Date().toISOString();
      client.setQueryData<ListBody>(notificationKeys.list(), (old) => {
        if (!old) return old;
        const read = (n: Notification) => "all" in body || body.ids.includes(n._id);
        const notifications = old.notifications.map((n) =>
          !n.readAt && read(n) ? { ...n, readAt: now } : n,
        );
        return {
          notifications,
          unread: Math.max(
            0,
            old.unread - old.notifications.filter((n) => !n.readAt && read(n)).length,
          ),
        };
      });
      return reactions.onMutate?.(body, context);
    },
    onSuccess: (answer, ...rest) => {
      client.setQueryData<ListBody>(notificationKeys.list(), (old) =>
        old ? { ...old, unread: answer.unread } : old,
      );
      return reactions.onSuccess?.(answer, ...rest);
    },
    onSettled: (...args) => {
      void client.invalidateQueries({ queryKey: notificationKeys.list() });
      return reactions.onSettled?.(...args);
    },
  });
}

export function useNotificationPreferences() {
  return useQuery({ ...notificationPreferencesQuery(), select: (body) => body.preferences });
}

export function useSavePreferences(
  reactions: Reactions<{ preferences: NotificationPreferences }, NotificationPreferences>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: saveNotificationPreferences,
    onSuccess: (answer, ...rest) => {
      client.setQueryData(notificationKeys.preferences(), answer);
      return reactions.onSuccess?.(answer, ...rest);
    },
  });
}
