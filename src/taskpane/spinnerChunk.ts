// The chunk LoadingSpinner loads with import(): Fluent's Spinner and nothing else, so the first
// screen paints before it arrives.
export { Spinner } from "@fluentui/react-components";
