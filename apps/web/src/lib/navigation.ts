/**
 * Lets non-React code (the API client, timers) navigate through the router. The root layout
 * registers the router's navigate function; before that, a full page load is the fallback.
 */
type Navigate = (to: string) => Promise<void> | void;

let current: Navigate | null = null;

export function registerNavigator(navigate: Navigate): () => void {
  current = navigate;
  return () => {
    if (current === navigate) current = null;
  };
}

export async function navigateTo(to: string): Promise<void> {
  if (current) {
    await current(to);
    return;
  }
  window.location.assign(to);
}
