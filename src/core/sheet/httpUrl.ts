// One check of an address for the sheet's hyperlinks and the task pane's ?api= override, in a
// module of its own so the task pane's first screen loads it without the sheet's cell code.

/** The text as an http(s) address; undefined when it is no address or another scheme (javascript:, data:, file:). */
export function httpUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}
