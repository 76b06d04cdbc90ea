// The client's audience writes over real HTTP against the sandbox's specification profile: an
// audience written, enriched and read back by row id (audienceWriteFlow.ts).
import { describe, it } from "node:test";
import { clientTimeOn, manualClock, useSandbox } from "../../helpers/sandbox.js";
import { writeEnrichReadBack } from "./audienceWriteFlow.js";
import { sandboxClient } from "./sandboxClient.js";

describe("client audience writes against the sandbox (specification profile)", () => {
  const clock = manualClock();
  const sandbox = useSandbox({ clock, jobRowsPerSecond: 5000 });

  it("writes an audience, enriches it and reads the enriched rows back by their ids", async () => {
    const token = await sandbox.token();
    await writeEnrichReadBack(
      sandboxClient(sandbox.url, () => token, clientTimeOn(clock)),
      clock,
    );
  });
});
