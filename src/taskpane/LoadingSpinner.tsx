// A tiny labelled spinner for the first screen's waiting states (a panel loading, the sign-in
// window open). Fluent's Spinner loads with import(): until it is there, the label shows alone.
import { lazy, Suspense } from "react";

const FluentSpinner = lazy(() => import("./spinnerChunk.js").then((m) => ({ default: m.Spinner })));

export function LoadingSpinner({ label }: { label: string }) {
  return (
    <Suspense fallback={<span role="status">{label}</span>}>
      <FluentSpinner size="tiny" label={label} />
    </Suspense>
  );
}
