// The pane's text of an error is the client's one road (core/api/userText.ts): the user message,
// with the service's reference id for support; the same text as the error factory's paneMessage
// (core/errors/failure.ts).
export { errorText } from "../core/api/userText.js";
