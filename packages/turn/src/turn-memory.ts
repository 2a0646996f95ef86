import type { ToolEffect } from '@patchbay/connector';
import type { Envelope, ErrorEnvelope } from '@patchbay/envelope';
import type { InteractiveFailure } from './retry-guidance.js';

/** What the per-call decision reads of the turn so far. */
export interface TurnMemoryView {
  /** 0 before any retry; n during the n-th retry. */
  readonly attempt: number;
  /** The envelope an earlier call with this identity got, if one was sent. */
  answerFor(identity: string): Envelope | undefined;
  /** Whether a call of this tool with a side effect (write, destructive) succeeded in this turn. */
  sideEffectDone(toolName: string): boolean;
  /** The failed calls of this tool still waiting to be fixed (one envelope each). */
  openFailuresOf(toolName: string): readonly ErrorEnvelope[];
  /** Calls of this tool sent in the current step although its side effect was done (retries of siblings). */
  resentInStep(toolName: string): number;
}

/** The turn's mutable state, changed only through these named operations. */
export interface TurnMemory extends TurnMemoryView {
  /** Every open failure, by tool, in the order they failed. */
  openFailures(): InteractiveFailure[];
  /** Whether any retry sequence is still open. */
  retryOpen(): boolean;
  /** Starts a model step: the per-step counts begin again. */
  startStep(): void;
  /** Records a call that reached the gate and its answer. */
  recordSent(toolName: string, identity: string, envelope: Envelope, effect: ToolEffect | undefined): void;
  /** Closes up to one open sequence per listed call (a tool listed twice closes two); returns the tools closed. */
  closeSequences(tools: Iterable<string>): string[];
  /**
   * Starts the next attempt: the failures of a tool called in this step become its open sequences.
   * Returns how many sequences are new (not a further failure of one already open).
   */
  openRetry(failures: readonly InteractiveFailure[]): number;
}

/**
 * The memory of one turn. A class, not closures: a turn (and every framework session) makes one, and
 * its methods are then shared rather than made again per turn.
 */
class TurnMemoryState implements TurnMemory {
  attempt = 0;
  /** Answers already given, by call identity: an identical call is never sent twice. */
  private readonly answered = new Map<string, Envelope>();
  private readonly sideEffects = new Set<string>();
  /** Open retry sequences by tool: two failed calls of one tool keep both sets of questions. */
  private readonly pending = new Map<string, ErrorEnvelope[]>();
  private readonly resent = new Map<string, number>();

  answerFor(identity: string): Envelope | undefined {
    return this.answered.get(identity);
  }

  sideEffectDone(toolName: string): boolean {
    return this.sideEffects.has(toolName);
  }

  openFailuresOf(toolName: string): readonly ErrorEnvelope[] {
    return this.pending.get(toolName) ?? [];
  }

  resentInStep(toolName: string): number {
    return this.resent.get(toolName) ?? 0;
  }

  openFailures(): InteractiveFailure[] {
    return [...this.pending].flatMap(([toolName, envelopes]) =>
      envelopes.map((envelope) => ({ toolName, envelope })),
    );
  }

  retryOpen(): boolean {
    return this.pending.size > 0;
  }

  startStep(): void {
    this.resent.clear();
  }

  recordSent(toolName: string, identity: string, envelope: Envelope, effect: ToolEffect | undefined): void {
    // Counted before this call's own success is recorded: only a repeat after a done side effect is a re-send.
    if (this.attempt > 0 && this.sideEffects.has(toolName)) {
      this.resent.set(toolName, (this.resent.get(toolName) ?? 0) + 1);
    }
    this.answered.set(identity, envelope);
    if (envelope.ok && (effect === 'write' || effect === 'destructive')) this.sideEffects.add(toolName);
  }

  closeSequences(tools: Iterable<string>): string[] {
    const closed: string[] = [];
    for (const tool of [...tools]) {
      const open = this.pending.get(tool);
      if (!open?.length) continue;
      open.shift();
      if (open.length === 0) this.pending.delete(tool);
      closed.push(tool);
    }
    return closed;
  }

  openRetry(failures: readonly InteractiveFailure[]): number {
    const failedNow = new Map<string, ErrorEnvelope[]>();
    for (const { toolName, envelope } of failures) {
      failedNow.set(toolName, [...(failedNow.get(toolName) ?? []), envelope]);
    }
    let opened = 0;
    for (const [tool, envelopes] of failedNow) {
      opened += Math.max(0, envelopes.length - (this.pending.get(tool)?.length ?? 0));
      this.pending.set(tool, envelopes);
    }
    this.attempt += 1;
    return opened;
  }
}

/** Creates the empty memory of a new turn. */
export function createTurnMemory(): TurnMemory {
  return new TurnMemoryState();
}
