import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { freePort } from "./server";

/**
 * A throwaway redis-server of our own, for tests that stop, pause or restart Redis: the
 * machine's shared Redis on 6379 is never touched.
 */
export interface ThrowawayRedis {
  url: string;
  /** SIGSTOP: the connection stays open but nothing answers (a slow Redis). */
  pause(): void;
  resume(): void;
  /** SIGKILL: connections are refused (Redis down). */
  kill(): Promise<void>;
  /** A new process on the same port (empty, like a restarted Redis without persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    for (let i = 0; i < 100 && !(await listening(port)); i++)
      await new Promise((r) => setTimeout(r, 50));
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGCONT");
      child.kill("SIGKILL");
    });
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    kill,
    restart: launch,
    stop: kill,
  };
}
