import { readFileSync } from "node:fs";
import type { Db } from "../src/server/db";

// CPU time of processes, read from /proc (Linux): what a request costs beside what it takes,
// which other work on the machine changes far less than throughput.

const TICKS = 100; // /proc's clock ticks per second on Linux

/** CPU seconds (user + system) a process has used so far, 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds the whole machine (all cores) has spent busy so far, from /proc/stat. */
function machineBusySeconds(): number {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const ticks = fields.slice(0, 8).map(Number); // user nice system idle iowait irq softirq steal
  return (ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!) / TICKS;
}

/** The backends serving the client's database, from pg_stat_activity. */
async function backendPids(db: Db): Promise<number[]> {
  const rows = await db.$queryRaw<{ pid: number }[]>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
  return rows.map((r) => r.pid);
}

/**
 * CPU seconds used from now until the returned function is called: by some processes (summed),
 * by the database's backends (a backend opened meanwhile counts whole; one that ended is not
 * seen), and by the whole machine.
 */
export async function cpuMeter(db: Db, pids: number[]) {
  const sum = () => pids.reduce((total, pid) => total + cpuSeconds(pid), 0);
  const backends = new Map((await backendPids(db)).map((p) => [p, cpuSeconds(p)]));
  const processes = sum();
  const machine = machineBusySeconds();
  return async () => {
    const now = await backendPids(db);
    return {
      processes: sum() - processes,
      database: now.reduce((total, p) => total + cpuSeconds(p) - (backends.get(p) ?? 0), 0),
      machine: machineBusySeconds() - machine,
    };
  };
}
