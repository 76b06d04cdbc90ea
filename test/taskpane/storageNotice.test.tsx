// The storage notice in the pane, rendered on the server from the page's storage notices: each
// problem told shows its one sentence, once; nothing shows while nothing was told.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { StorageNotices } from "../../src/core/storage/storageNotices.js";
import { StorageNotice } from "../../src/taskpane/StorageNotice.js";

const render = (notices: StorageNotices) =>
  renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <StorageNotice notices={notices} />
    </FluentProvider>,
  );

describe("storage notice", () => {
  it("shows each problem told, once, in the user's words", () => {
    const notices = new StorageNotices();
    assert.doesNotMatch(render(notices), /storage-notice/);
    notices.report("cache");
    notices.report("cache");
    notices.report("spend");
    const html = render(notices);
    assert.equal(html.match(/data-testid="storage-notice-cache"/g)?.length, 1);
    assert.match(html, /Results can&#x27;t be kept on this computer/);
    assert.match(html, /nothing that costs credits is fetched until it can be/);
    assert.doesNotMatch(html, /storage-notice-items/);
  });
});
