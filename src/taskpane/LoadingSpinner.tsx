// A tiny labelled spinner for the first screen's waiting states (a panel loading, the sign-in
// window open). Fluent's Spinner loads with import(): until it is there, the label shows alone.
import { lazy, Suspense } from "react";

const FluentSpinner = lazy(() => import("./FluentSpinner.js").then((m) => ({ default: m.FluentSpinner })));

export function LoadingSpinner({ label }: { label: string }) {
  return (
    <Suspense fallback={<span role="status">{label}</span>}>
      <FluentSpinner size="tiny" label={label} />
    </Suspense>
  );
}
