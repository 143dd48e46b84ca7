// The nemesis: injects a round's faults at their times, each healed after its duration (a killed
// instance is started again, a proxy passes traffic again, an offline client reconnects).
import type { AppServer } from "../lib/app-server.ts";
import type { FaultProxy } from "../lib/fault-proxy.ts";
import type { Participant } from "./participants.ts";
import { describeFault, type Fault } from "./schedule.ts";

/** How long a SIGTERM may take to stop an instance before it counts as hanging (and gets SIGKILL). */
const GRACEFUL_STOP_MS = 30_000;
/** How long an instance may take to come back (it cannot start while PostgreSQL is unreachable). */
const RESTART_BUDGET_MS = 120_000;

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** What the nemesis acts on. */
export interface NemesisTargets {
  servers: AppServer[];
  postgres: FaultProxy;
  redis: FaultProxy;
  /** Per instance, the proxy its slow clients reach it through. */
  slow: FaultProxy[];
  participants: Participant[];
}

export class Nemesis {
  private readonly targets: NemesisTargets;
  private readonly log: (line: string) => void;
  /** Broken promises seen while injecting (an instance that would not stop or start). */
  readonly problems: string[] = [];
  /** The instances started again (new processes). */
  readonly restarted = new Set<number>();
  /** How many faults are going on at each proxy (it heals when the last one ends). */
  private readonly held = new Map<FaultProxy, number>();
  /** When the round's work began (faults are timed from it). */
  private began = 0;

  constructor(targets: NemesisTargets, log: (line: string) => void) {
    this.targets = targets;
    this.log = log;
  }

  /** Injects every fault at its time; resolves once each one has been healed. */
  async run(faults: readonly Fault[]): Promise<void> {
    this.began = Date.now();
    await Promise.all(
      faults.map(async (fault, index) => {
        await pause(fault.at);
        this.log(`    nemesis: ${describeFault(fault)}`);
        await this.inject(fault, index);
      }),
    );
  }

  /** Faults going on per proxy, changed by `change`; returns how many are left. */
  private hold(proxy: FaultProxy, change: 1 | -1): number {
    const held = (this.held.get(proxy) ?? 0) + change;
    this.held.set(proxy, held);
    return held;
  }

  private since(): string {
    return `+${((Date.now() - this.began) / 1000).toFixed(1)} s`;
  }

  private async inject(fault: Fault, index: number): Promise<void> {
    const { servers, postgres, redis, slow, participants } = this.targets;
    switch (fault.kind) {
      case "sigkill":
      case "sigterm": {
        const server = servers[fault.instance] as AppServer;
        await this.stop(server, fault.kind === "sigkill" ? "SIGKILL" : "SIGTERM", fault.instance);
        await pause(fault.downMs);
        await this.restart(server, fault.instance);
        return;
      }
      case "redis-down":
      case "postgres-down": {
        const proxy = fault.kind === "redis-down" ? redis : postgres;
        this.hold(proxy, 1);
        if (fault.mode === "refuse") proxy.refuse();
        else proxy.stall();
        await pause(fault.durationMs);
        // Two outages of one service overlapping: it is back when the later one ends.
        if (this.hold(proxy, -1) === 0) {
          proxy.restore();
          this.log(`    nemesis: ${fault.kind} healed (${this.since()})`);
        }
        return;
      }
      case "socket-cut":
        for (const victim of fault.participants) participants[victim]?.cutSocket();
        return;
      case "client-offline": {
        const victim = participants[fault.participant];
        // Two overlapping offline faults on one client: the later one leaves it to the first.
        if (!victim || victim.offline) return;
        victim.goOffline();
        await pause(fault.durationMs);
        victim.goOnline();
        return;
      }
      case "slow-link": {
        const proxy = slow[fault.instance] as FaultProxy;
        this.hold(proxy, 1);
        proxy.slow(Math.max(proxy.delayMs, fault.delayMs));
        await pause(fault.durationMs);
        if (this.hold(proxy, -1) === 0) proxy.slow(0);
        return;
      }
      default:
        throw new Error(`fault ${index} of an unknown kind`);
    }
  }

  /** Stops an instance with `signal`; a SIGTERM that does not stop it in time is a problem (then SIGKILL). */
  private async stop(server: AppServer, signal: NodeJS.Signals, instance: number): Promise<void> {
    const pids = server.pids();
    const started = Date.now();
    const stopped = server.kill(signal);
    const timer = setTimeout(() => {
      this.problems.push(
        `instance ${instance} did not stop within ${GRACEFUL_STOP_MS / 1000} s of ${signal}`,
      );
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
      }
    }, GRACEFUL_STOP_MS);
    await stopped;
    clearTimeout(timer);
    this.log(
      `    nemesis: instance ${instance} stopped by ${signal} in ${Date.now() - started} ms (${this.since()})`,
    );
  }

  /**
   * Starts an instance again, as an orchestrator would: a start that fails (the database is
   * unreachable at that moment, so the server exits) is tried again until it succeeds.
   */
  private async restart(server: AppServer, instance: number): Promise<void> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await server.start();
        this.restarted.add(instance);
        this.log(
          `    nemesis: instance ${instance} back after ${Date.now() - started} ms, attempt ${attempt} (${this.since()})`,
        );
        return;
      } catch (error) {
        // The failed start's process is gone (or is stopped now): start() refuses while it is known.
        await server.kill();
        const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
        if (Date.now() - started > RESTART_BUDGET_MS) {
          this.problems.push(
            `instance ${instance} did not start again within ${RESTART_BUDGET_MS / 1000} s: ${reason}`,
          );
          throw error;
        }
        this.log(`    nemesis: instance ${instance} failed to start (${reason}); trying again`);
        await pause(1_000);
      }
    }
  }

  /** Heals whatever is still broken (the faults heal themselves; this is the safety net after a failure). */
  async healAll(): Promise<void> {
    const { servers, postgres, redis, slow, participants } = this.targets;
    for (const proxy of [postgres, redis, ...slow]) proxy.restore();
    for (const participant of participants) participant.goOnline();
    for (const [instance, server] of servers.entries()) {
      if (server.pids().length === 0) await this.restart(server, instance);
    }
  }
}
