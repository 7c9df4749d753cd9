/** What other parts of the app use of notifications: the bell in the header. */
export { NotificationBell, bellLabel } from "./NotificationBell.tsx";
