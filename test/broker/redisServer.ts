// A real redis-server for the tests that share pacing between broker instances: started on a
// free port with a temporary directory, stopped (by its own pid) at the end.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** Why the Redis tests cannot run here, or undefined when redis-server is installed. */
export function redisMissing(): string | undefined {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return probe.error || probe.status !== 0 ? "redis-server is not installed (Debian package redis-server; .ci/run installs it)" : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningRedis {
  url: string;
  /** Stops the server answering (SIGSTOP) while it keeps its connections: a stalled Redis. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const dir = mkdtempSync(join(tmpdir(), "broker-redis-"));
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (/Ready to accept connections/.test(line)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
    stop: async () => {
      // Idempotent: a test's `finally` stops a server its body may have stopped already.
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGCONT");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
