import { Card, Container } from "../../components/ui/index.ts";
import { NotificationSettingsCard, PushDeviceCard } from "../profile/index.ts";
import { MarkAllRead, NotificationList } from "./NotificationList.tsx";

/** /notifications: every notification, newest first, what reaches the reader, and this device. */
export function NotificationsPage() {
  return (
    <Container className="py-8 sm:py-12">
      <title>Notifications — Cartner</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Notifications</h1>
          <MarkAllRead />
        </div>
        <Card className="p-3 sm:p-4">
          <NotificationList />
        </Card>
        <NotificationSettingsCard />
        <PushDeviceCard />
      </div>
    </Container>
  );
}
