import { Component, type ReactNode } from 'react';

interface RouteErrorBoundaryProps {
  /** A new path clears the error, so the next page gets its chance. */
  pathname: string;
  children: ReactNode;
}

interface RouteErrorBoundaryState {
  failed: boolean;
  pathname: string;
}

/** Shown when a page cannot load, e.g. a chunk of an older build vanished after a deploy. */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  override state: RouteErrorBoundaryState = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(): Partial<RouteErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: RouteErrorBoundaryProps,
    state: RouteErrorBoundaryState,
  ): Partial<RouteErrorBoundaryState> | null {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="page" aria-labelledby="route-error-title">
        <h1 id="route-error-title">Something went wrong</h1>
        <p>This page could not be shown. Please reload the page to try again.</p>
      </section>
    );
  }
}
