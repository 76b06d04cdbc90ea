// Fluent's Spinner on its own, for LoadingSpinner to load with import().
export { Spinner as FluentSpinner } from "@fluentui/react-components";
