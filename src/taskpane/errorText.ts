// The pane's text of an error is the client's one road (core/api/userText.ts): the user message,
// with the service's reference id for support.
export { errorText } from "../core/api/userText.js";
