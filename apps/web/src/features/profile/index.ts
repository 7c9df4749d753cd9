/** What other features use of the profile: the notification settings card. */
export { NotificationSettingsCard } from "./NotificationSettingsCard.tsx";
