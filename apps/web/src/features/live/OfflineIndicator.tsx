import { RefreshCw, WifiOff } from "lucide-react";
import { Badge } from "../../components/ui/index.ts";
import { useLiveState } from "../../lib/live-status.ts";
import { useBrowserOnline } from "../../lib/use-online.ts";

export const OFFLINE_MESSAGE = "Offline – reconnecting…";
export const LIMITED_MESSAGE = "Too many open tabs – this one syncs every 5 s";

/**
 * A pill hanging under the navigation bar while the live socket has been down for a while (or was
 * refused because this account has too many open, so this tab polls instead), or while the browser
 * says it is offline (cart changes then queue; see api/cart-writes.ts). It is
 * positioned out of flow, so showing it never moves the page (nor wraps the bar at 360 px).
 */
export function OfflineIndicator() {
  const live = useLiveState();
  // The browser knows it has no network before the socket notices.
  const browserOnline = useBrowserOnline();
  const { status } = live;
  const offline = live.offline || (!browserOnline && status !== "off");
  // The live region exists while the client runs, so screen readers announce the pill appearing.
  if (status === "off") return null;
  return (
    <div
      role="status"
      className="pointer-events-none absolute inset-x-0 top-full flex justify-center pt-2"
    >
      {offline ? (
        <Badge tone="accent" className="shadow-soft">
          <WifiOff aria-hidden="true" className="size-3.5" />
          {OFFLINE_MESSAGE}
        </Badge>
      ) : status === "limited" ? (
        <Badge className="shadow-soft">
          <RefreshCw aria-hidden="true" className="size-3.5" />
          {LIMITED_MESSAGE}
        </Badge>
      ) : null}
    </div>
  );
}
