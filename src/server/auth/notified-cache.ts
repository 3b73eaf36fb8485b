import pg from "pg";
import type { DbClient } from "@/server/db";
import { log } from "@/server/log";

/**
 * Credentials looked up by their hash, cached so a busy one does not cost a query per request,
 * with a revocation bound: a trigger NOTIFYs `channel` with the hash of every changed row (an
 * empty payload: drop them all), from any process or tool, and each server drops it at once;
 * while a process's notification connection is not up it caches nothing; and no entry is used
 * after `ttlMs` in any case. Unknown and unusable credentials are never cached. One instance per
 * kind of credential (API keys, deployments' ingest keys), each with its own channel.
 */
export class NotifiedCache<R> {
  private readonly entries = new Map<string, { record: R; until: number }>();
  /** Bumped by every notification and on every (re)connect: a lookup that raced one is not kept. */
  private generation = 0;
  private listening = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly options: {
      databaseUrl: string | undefined;
      /** The NOTIFY channel (a plain identifier). */
      channel: string;
      lookUp: (db: DbClient, hash: string) => Promise<R | null>;
      /** Whether a record found may be kept (a revoked one is not). */
      usable: (record: R) => boolean;
      ttlMs: number;
      maxEntries?: number;
    },
  ) {}

  /** Whether changes are being heard (only then is anything cached). */
  get isListening(): boolean {
    return this.listening;
  }

  async find(db: DbClient, hash: string): Promise<R | null> {
    if (this.listening) {
      const hit = this.entries.get(hash);
      if (hit && hit.until > Date.now()) return hit.record;
      this.entries.delete(hash);
    } else this.listen();
    const generation = this.generation;
    const record = await this.options.lookUp(db, hash);
    if (record && this.options.usable(record) && this.listening && generation === this.generation) {
      if (this.entries.size >= (this.options.maxEntries ?? 10_000))
        this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { record, until: Date.now() + this.options.ttlMs });
    }
    return record;
  }

  /**
   * Drops one entry, or all. Announcements do this in every process; a process that has just
   * committed a revocation itself calls it too, so its own next request cannot beat the news.
   */
  forget(hash?: string) {
    this.generation++;
    if (hash) this.entries.delete(hash);
    else this.entries.clear();
  }

  /** One LISTEN connection per cache and process; on any failure, stop caching until it is back. */
  private listen() {
    if (!this.options.databaseUrl || this.connecting) return;
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    const down = () => {
      this.listening = false;
      this.forget();
      client.removeAllListeners();
      client.end().catch(() => undefined);
      // Try again on a later request, not in a loop.
      setTimeout(() => (this.connecting = null), 1_000).unref();
    };
    client.on("notification", (message) => this.forget(message.payload || undefined));
    client.on("error", down);
    client.on("end", down);
    this.connecting = client
      .connect()
      .then(() => client.query(`LISTEN ${this.options.channel}`))
      .then(() => {
        // The server must be able to exit with this connection open.
        (
          client as unknown as { connection: { stream: { unref(): void } } }
        ).connection.stream.unref();
        this.forget();
        this.listening = true;
      })
      .catch((error: unknown) => {
        log.warn(`Cache of ${this.options.channel} disabled: cannot listen for changes`, {
          error: String(error),
        });
        down();
      });
  }
}
