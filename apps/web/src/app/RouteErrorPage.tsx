import { useEffect } from "react";
import { useRouteError } from "react-router";
import { ErrorNotice } from "./ErrorNotice.tsx";

/** The router's last line of defence (the layout itself failed): a standalone friendly page. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.error("Cartner route error", error);
  }, [error]);
  return (
    <main id="main-content" className="min-h-dvh">
      <ErrorNotice />
    </main>
  );
}
