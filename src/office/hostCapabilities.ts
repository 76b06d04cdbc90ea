/* global Office */
// What the Excel host can do, asked of office.js in one place so the task pane and the cell
// functions' wiring never touch Office.context themselves. Each capability beyond the sets the
// manifest requires is a function here that asks isSetSupported (test/office/requirementSets.test.ts
// accepts a call to one of them as the guard of the members it covers; docs/excel-host.md).

/** Whether the host has a requirement set; false outside Office or on a host without requirement sets. */
function hasSet(name: string, version: string): boolean {
  if (typeof Office === "undefined") return false;
  try {
    return Office.context?.requirements?.isSetSupported(name, version) === true;
  } catch {
    // An Office without requirement sets (very old hosts, or before Office.onReady).
    return false;
  }
}

/**
 * Whether a custom function may return a data-type card (and receive data types as arguments):
 * CustomFunctionsRuntime 1.4, with ExcelApi 1.16's entity values. Microsoft 365 (Windows 2208+,
 * Mac 16.64+) and Excel on the web; not perpetual or volume-licensed Windows, nor iPad, which get
 * the company's name instead. False outside Office.
 */
export function supportsEntityCards(): boolean {
  return hasSet("CustomFunctionsRuntime", "1.4") && hasSet("ExcelApi", "1.16");
}

/** The host Office reports, or null outside Office (office.js says so in about 40 ms). */
export async function officeHost(): Promise<string | null> {
  if (typeof Office === "undefined" || typeof Office.onReady !== "function") return null;
  const info = await Office.onReady();
  return info.host ? String(info.host) : null;
}

/** Whether Table.resize is there: ExcelApi 1.13. False outside Office and on older hosts. */
export function supportsTableResize(): boolean {
  if (typeof Office === "undefined") return false;
  try {
    return Office.context?.requirements?.isSetSupported("ExcelApi", "1.13") === true;
  } catch {
    return false;
  }
}
