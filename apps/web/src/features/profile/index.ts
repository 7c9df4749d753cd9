/** What other features use of the profile: the notification settings and this device's push. */
export { NotificationSettingsCard } from "./NotificationSettingsCard.tsx";
export { PushDeviceCard } from "./PushDevice.tsx";
