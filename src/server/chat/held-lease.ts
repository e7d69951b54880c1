import type { TurnLeases } from '../conversations/turn-leases';
import type { Logger } from '../platform/logger';

/** One turn's lease while this instance holds it: renewed in the background, and a signal for when it is lost. */
export interface HeldLease {
  readonly owner: string;
  /**
   * Aborted once the lease is, or may be, another instance's: a renewal found it gone, or none succeeded for a whole
   * lease (the database away), after which another instance may have claimed it. The turn then writes nothing more.
   */
  readonly lost: AbortSignal;
  /** Resolves once the lease is held; rejects when it could not be taken (the turn then fails as usual). */
  readonly ready: Promise<void>;
  /** Renews now: false when the lease is lost. The fence right before `message.done`. */
  check(): Promise<boolean>;
  /** The turn ended: renewals stop, and the lease goes (only if it is still this instance's). */
  release(): Promise<void>;
  /**
   * The reply's end took the lease with it (issue 32: in the same statement): renewals stop, and `release` has nothing
   * left to do.
   */
  ended(): void;
  /** The instance shuts down with the turn unfinished: renewals stop, and the lease lapses for another to claim. */
  handBack(): Promise<void>;
}

/**
 * Takes (or, for a claimed turn, keeps) the lease of a reply, from the moment its turn is queued: a turn waiting behind
 * another of its conversation is taken over too if its instance dies. Renewed three times per lease, so one slow
 * renewal never lets it lapse. `claimed`: the lease is this instance's already (a claimed turn's, or one taken with the
 * shopper's message, chat-store.ts `addUserMessage`).
 */
export function holdLease(
  leases: TurnLeases,
  turn: { replyId: string; conversationId: string; widgetId: string },
  { claimed, logger }: { claimed: boolean; logger: Logger },
): HeldLease {
  const controller = new AbortController();
  let renewedAt = performance.now();
  let renewer: ReturnType<typeof setInterval> | undefined;
  let isEnded = false;
  const renew = async () => {
    try {
      const held = await leases.renew(turn.replyId);
      if (held) renewedAt = performance.now();
      else controller.abort();
      return held;
    } catch (error) {
      logger.warn('lease renewal failed', { reply: turn.replyId, error: String(error) });
      if (performance.now() - renewedAt >= leases.leaseMs) controller.abort();
      return false;
    }
  };
  const ready = (claimed ? Promise.resolve() : leases.hold(turn)).then(() => {
    if (isEnded) return;
    renewedAt = performance.now();
    renewer = setInterval(() => void renew(), leases.leaseMs / 3);
    renewer.unref?.();
  });
  // Awaited by the turn when it starts; a failure before then is not an unhandled rejection.
  ready.catch(() => {});
  return {
    owner: leases.owner,
    lost: controller.signal,
    ready,
    check: async () => !controller.signal.aborted && (await renew()),
    async release() {
      clearInterval(renewer);
      if (isEnded) return;
      await ready.catch(() => {});
      await leases.release(turn.replyId);
    },
    ended() {
      isEnded = true;
      clearInterval(renewer);
    },
    async handBack() {
      clearInterval(renewer);
      await ready.catch(() => {});
      await leases.lapse(turn.replyId);
    },
  };
}
