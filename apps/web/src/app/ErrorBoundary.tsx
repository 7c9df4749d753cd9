import { Component, type ErrorInfo, type ReactNode } from "react";
import { ErrorNotice } from "./ErrorNotice.tsx";

function isChunkLoadError(error: Error): boolean {
  return /dynamically imported module|module script failed|Failed to fetch|error loading/i.test(
    error.message,
  );
}

interface ErrorBoundaryProps {
  children: ReactNode;
  /** When this changes (e.g. the route), a shown error is cleared. */
  resetKey?: string;
  /** Around the whole layout: the notice is the page, in its own <main>. */
  standalone?: boolean;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: string | undefined;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<ErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Cartner hit an unexpected error", error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error) {
      // A page's code that failed to download (e.g. after a new release) needs a fresh page load.
      const notice = isChunkLoadError(error) ? (
        <ErrorNotice />
      ) : (
        <ErrorNotice onRetry={() => this.setState({ error: null })} />
      );
      if (!this.props.standalone) return notice;
      return (
        <main id="main-content" className="min-h-dvh">
          {notice}
        </main>
      );
    }
    return this.props.children;
  }
}
