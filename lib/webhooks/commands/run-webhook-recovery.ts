/**
 * One step of a recovery (`POST /webhooks/{id}/recover`), as a recovery-queue message asks
 * (lib/webhooks/pipeline.ts):
 *   1. claim the step on the recovery's record (lease) and push the webhook's "recovery alive" time
 *      forward, reading the webhook, at once; a duplicate or stale message is dropped;
 *   2. the webhook deleted, taken over or disabled? give back what the recovery holds and stop;
 *   3. for about STEP_SECONDS: when it holds nothing, walk on (store/recovery-deliveries.ts): take up
 *      the next deliveries of the window in event order and write, in one conditional write, where
 *      the walk stands, what it took and `queued`; then send what it holds, one at a time, in order,
 *      each attempt claimed with a lease and paced by the webhook's rate, and write what became of
 *      them (`delivered`, `failed`) in one conditional write;
 *   4. the walk done: finish (`done`), freeing the webhook; the webhook disabled by an attempt, or
 *      MAX_FAILURES_IN_A_ROW failures in a row: give back and stop (`stopped`);
 *   5. out of time: queue the next step's message, then let it claim (a crash in between repeats the
 *      step from its record, never loses it).
 * Whatever dies where, the record says what is done: a step re-reads its taken deliveries before it
 * sends any (recovery-window.ts `stateOfTaken`) and counts what a dead step sent but did not count.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../platform/config.ts';
import { logger } from '../../platform/logger.ts';
import { countBusinessEvent } from '../../platform/metrics.ts';
import { attemptDelivery, noteAttempt } from '../attempt.ts';
import { type FailureState, parseDisableAfterSeconds } from '../failure-window.ts';
import { RECOVERY_ATTEMPT_LEASE_SECONDS, RECOVERY_LEASE_SECONDS, RECOVERY_STEP_SECONDS } from '../pipeline.ts';
import type { WebhookRecord } from '../record.ts';
import { type RecoveryMessage, sendRecoveryMessage } from '../recovery-queue.ts';
import { MAX_FAILURES_IN_A_ROW, stateOfTaken, type TakenDelivery } from '../recovery-window.ts';
import { recordAttemptResult } from '../store/deliveries.ts';
import { takeRateSlot } from '../store/rate-slots.ts';
import {
  type ClaimedStep,
  claimRecoveryStep,
  finishRecovery,
  passRecoveryOn,
  RECOVERY_STALE_MS,
  saveRecoveryProgress,
} from '../store/recoveries.ts';
import { claimRecoveryAttempt, giveBack, nextToRecover, readTaken, takeUp } from '../store/recovery-deliveries.ts';
import { holdRecoveryLock } from '../store/webhooks.ts';

const queueUrl = config.webhookRecoveryQueueUrl();
const windowSeconds = parseDisableAfterSeconds(config.webhookDisableAfterSeconds());

/** Deliveries taken up at once: one conditional write each, sent together; the record lists them (about 2 KB). */
const TAKE_AT_ONCE = 25;

/** `later`: the message must come back after this many seconds (its step is under way elsewhere, or not yet due). */
export type StepVerdict = 'done' | { later: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runWebhookRecovery(message: RecoveryMessage): Promise<StepVerdict> {
  const now = Date.now();
  const [claim, webhook] = await Promise.all([
    claimRecoveryStep(message, RECOVERY_LEASE_SECONDS, now),
    holdRecoveryLock(message.workspace, message.webhookId, message.recoveryId, now + RECOVERY_STALE_MS),
  ]);
  if ('rejected' in claim) {
    logger.debug('Recovery message dropped or deferred', { ...message, reason: claim.rejected });
    if (claim.rejected === 'busy') return { later: Math.max(1, Math.ceil((claim.leaseUntil - now) / 1000)) };
    return claim.rejected === 'early' ? { later: 10 } : 'done';
  }
  const step = claim.claimed;
  if (!webhook) return stop(step, 'the webhook was deleted, or another recovery took it over');
  if (!webhook.enabled) return stop(step, 'the webhook was disabled');
  return new Step(step, webhook, now + RECOVERY_STEP_SECONDS * 1000).run(message);
}

/** Give back what it holds, then stop. */
async function stop(step: ClaimedStep, reason: string): Promise<StepVerdict> {
  const { recovery } = step;
  await giveBack(recovery.workspace, recovery.webhookId, recovery.id, recovery.taken);
  if (await finishRecovery(step, { status: 'stopped', reason })) {
    logger.info('Webhook recovery stopped', { recoveryId: recovery.id, reason });
  }
  return 'done';
}

class Step {
  private failures: FailureState;

  constructor(
    private readonly step: ClaimedStep,
    private readonly webhook: WebhookRecord,
    private readonly deadline: number,
  ) {
    this.failures = { failingSince: webhook.failingSince, lastErrors: webhook.lastErrors, lastFailureAt: webhook.lastFailureAt };
  }

  private get recovery() {
    return this.step.recovery;
  }

  async run(message: RecoveryMessage): Promise<StepVerdict> {
    while (Date.now() < this.deadline) {
      if (this.recovery.taken.length === 0) {
        const walked = await this.walkOn();
        if (walked === 'lost') return 'done';
        if (walked === 'end') {
          await finishRecovery(this.step, { status: 'done' });
          return 'done';
        }
        continue;
      }
      const sent = await this.sendTaken();
      if (sent === 'lost') return 'done';
      if (typeof sent === 'object' && 'stop' in sent) return stop(this.step, sent.stop);
      if (typeof sent === 'object' && 'busyUntil' in sent) return this.passOn(message, sent.busyUntil);
    }
    return this.passOn(message, Date.now());
  }

  /** Take up the next deliveries of the window, and say so in the record with where the walk stands. */
  private async walkOn(): Promise<'walked' | 'end' | 'lost'> {
    const { workspace, webhookId, id } = this.recovery;
    const { found, next } = await nextToRecover(workspace, webhookId, id, this.recovery, TAKE_AT_ONCE);
    if (found.length === 0 && next === null) return 'end';
    const taken = await takeUp(id, found);
    // Past the last delivery found, or the window's end when every range was read to it.
    const position = next ?? this.recovery.to;
    const progress = { position, taken, failuresInARow: this.recovery.failuresInARow, queued: taken.length };
    if (!(await saveRecoveryProgress(this.step, progress))) return 'lost';
    Object.assign(this.recovery, { position, taken, queued: this.recovery.queued + taken.length });
    return 'walked';
  }

  /**
   * Send the taken deliveries in order, each once, then write what became of them. `stop`: the
   * webhook was disabled by an attempt, or the receiver failed too often in a row; `busyUntil`: a
   * delivery's attempt is still leased by a step that died (it comes back after).
   */
  private async sendTaken(): Promise<'sent' | 'lost' | { stop: string } | { busyUntil: number }> {
    const { workspace, webhookId, id } = this.recovery;
    const records = await readTaken(workspace, webhookId, this.recovery.taken);
    const rest = [...this.recovery.taken];
    const counts = { delivered: 0, failed: 0, lost: 0 };
    let failuresInARow = this.recovery.failuresInARow;
    let verdict: 'sent' | { stop: string } | { busyUntil: number } = 'sent';
    while (rest.length > 0 && Date.now() < this.deadline) {
      const taken = rest[0]!;
      let state = stateOfTaken(taken, records.get(taken.eventId) ?? null, id);
      if (state === 'send') {
        const sent = await this.send(taken);
        if (typeof sent === 'object') {
          verdict = sent;
          if ('stop' in sent) {
            rest.shift();
            counts.failed++;
          }
          break;
        }
        state = sent;
      }
      rest.shift();
      if (state === 'lost') counts.lost++;
      else counts[state]++;
      if (state === 'failed') failuresInARow++;
      if (state === 'delivered') failuresInARow = 0;
      if (failuresInARow >= MAX_FAILURES_IN_A_ROW) {
        verdict = { stop: `${MAX_FAILURES_IN_A_ROW} attempts in a row failed: the receiver seems down; recover again once it answers` };
        break;
      }
    }
    // What a delivery someone else took over meanwhile (a redelivery by hand) was counted as taken, it is no longer.
    const progress = { taken: rest, failuresInARow, delivered: counts.delivered, failed: counts.failed, queued: -counts.lost };
    if (!(await saveRecoveryProgress(this.step, progress))) return 'lost';
    Object.assign(this.recovery, {
      taken: rest,
      failuresInARow,
      delivered: this.recovery.delivered + counts.delivered,
      failed: this.recovery.failed + counts.failed,
      queued: this.recovery.queued - counts.lost,
    });
    if (counts.delivered > 0) countBusinessEvent('WebhookDeliveriesSucceeded', counts.delivered);
    return verdict;
  }

  /** One delivery's attempt: paced by the webhook's rate, claimed, made, recorded. */
  private async send(taken: TakenDelivery): Promise<'delivered' | 'failed' | 'lost' | { stop: string } | { busyUntil: number }> {
    const { workspace, webhookId, id } = this.recovery;
    const paced = await this.pace();
    if (paced !== true) return paced;
    const claim = await claimRecoveryAttempt(workspace, webhookId, id, taken, RECOVERY_ATTEMPT_LEASE_SECONDS, randomUUID());
    if ('busyUntil' in claim) return claim;
    if (!('claimed' in claim)) return 'lost';
    const attempted = await attemptDelivery(this.webhook, claim.claimed);
    const after = await noteAttempt(this.webhook, this.failures, attempted, windowSeconds);
    await recordAttemptResult(claim.claimed, { attempt: attempted.record, outcome: attempted.ok ? 'delivered' : 'failed' });
    if (after.disabled) {
      return {
        stop:
          after.code === 'gone'
            ? 'the receiver answered 410 Gone: the webhook was disabled'
            : 'the webhook was disabled: its receiver kept failing',
      };
    }
    this.failures = after.failures;
    return attempted.ok ? 'delivered' : 'failed';
  }

  /** Wait for the webhook's rate budget (the live deliveries share it); past the step's time, the next step waits. */
  private async pace(): Promise<true | { busyUntil: number }> {
    const rate = this.webhook.maxDeliveriesPerSecond;
    if (rate === null) return true;
    for (;;) {
      const slot = await takeRateSlot(this.recovery.workspace, this.webhook.id, rate);
      if (slot.go) return true;
      if (slot.retryAtMs > this.deadline) return { busyUntil: slot.retryAtMs };
      await sleep(Math.max(0, slot.retryAtMs - Date.now()));
    }
  }

  /** Out of time (or waiting on a lease): the next step's message first, then the record lets it claim. */
  private async passOn(message: RecoveryMessage, notBefore: number): Promise<StepVerdict> {
    const next = { ...message, step: message.step + 1 };
    await sendRecoveryMessage(queueUrl, next, Math.min(900, Math.max(0, Math.ceil((notBefore - Date.now()) / 1000))));
    await passRecoveryOn(this.step, next.step);
    return 'done';
  }
}
