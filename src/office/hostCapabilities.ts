/* global Office */
// What the Excel host can do, asked of office.js in one place so the task pane and the cell
// functions' wiring never touch Office.context themselves.

/** Whether Excel shows entity values (data-type cards): ExcelApi 1.16. False outside Office. */
export function supportsEntityCards(): boolean {
  if (typeof Office === "undefined") return false;
  try {
    return Office.context?.requirements?.isSetSupported("ExcelApi", "1.16") === true;
  } catch {
    // An Office without requirement sets (very old hosts, or before Office.onReady): no cards.
    return false;
  }
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
