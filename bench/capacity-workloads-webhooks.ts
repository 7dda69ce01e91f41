/**
 * The per-webhook rate budget as a capacity-model workload (issue 40 item 4): one webhook at
 * `maxDeliveriesPerSecond` 1,000, the most it may be set to. Every delivery to it takes a slot of the
 * budget (lib/webhooks/store/rate-slots.ts) with one write to `WHRATE#<webhookId>#<shard>#<second>`;
 * each shard's slots of successive seconds are a key range written in ascending order, so its end is
 * one partition that takes every write of that shard (lib/webhooks/rate-budget.ts says why the budget
 * is split over `shardsFor(rate)` of them). The model holds those ranges, with the shard count the
 * code declares, under a partition's 1,000 write units at the target, and more: at the most, as many
 * tries are sent back as get through (each takes a slot too), so the check allows for two tries a
 * delivery. The run stays under the rate, so every try here gets through; the check adds the others.
 */

import { DELIVERY_SHARDS } from '../lib/webhooks/entities.ts';
import { MAX_DELIVERIES_PER_SECOND, shardsFor } from '../lib/webhooks/rate-budget.ts';
import { newCaller, type Workload } from './capacity-workloads.ts';
import { DELIVERY, deliveryStatuses, FAN_OUT, receiver } from './capacity-workloads-platform.ts';

/** The budget's slot items and their ranges, as the model names them. */
const SLOTS = 'table WS#<ws> WHRATE#<webhookId>#<shard>#<n>';
/** Slot writes per delivery at the most: its own try, and one sent back for every one let through (rate-budget.ts). */
const TRIES_PER_DELIVERY = 2;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const rateBudgetWorkload: Workload = {
  id: 'webhook-rate-budget',
  title: 'One webhook at its highest rate (maxDeliveriesPerSecond 1,000)',
  call: 'one idea event delivered to it, its slot of the rate budget taken (what the fan-out and the delivery write)',
  target: MAX_DELIVERIES_PER_SECOND,
  targetNote: `${MAX_DELIVERIES_PER_SECOND.toLocaleString('en')} (its rate), the budget's slots at ${TRIES_PER_DELIVERY} tries a delivery`,
  copies: () =>
    new Map([
      [SLOTS, shardsFor(MAX_DELIVERIES_PER_SECOND)],
      ['table WS#<ws> WHDELIVERY#<webhookId>#<shard>#<key>', DELIVERY_SHARDS],
    ]),
  check(model) {
    const slots = model.buckets.filter((bucket) => bucket.template === SLOTS);
    if (slots.length === 0) return 'no delivery took a slot of the rate budget';
    const tightest = slots.reduce((a, b) => (a.ceiling <= b.ceiling ? a : b));
    const deliveries = tightest.ceiling / TRIES_PER_DELIVERY;
    return deliveries < MAX_DELIVERIES_PER_SECOND
      ? `the rate budget's ${tightest.kind} ${SLOTS} reaches a partition's limit at ${Math.floor(deliveries)} deliveries a second (${TRIES_PER_DELIVERY} tries each)`
      : null;
  },
  async setup(sandbox) {
    const caller = await newCaller(sandbox, 'rate', 1);
    const target = await receiver();
    const { webhook } = await caller.settingUp<{ webhook: { id: string } }>('POST', '/webhooks', 201, {
      name: 'Capacity rate',
      url: target.url,
      events: ['idea.submitted'],
      maxDeliveriesPerSecond: MAX_DELIVERIES_PER_SECOND,
    });
    await caller.settingUp('POST', `/webhooks/${webhook.id}/enable`, 200);
    const names = new Map([
      [caller.slug, 'ws'],
      [webhook.id, 'webhookId'],
    ]);
    const ideas = 40;
    return {
      names,
      counts: (handler) => handler === FAN_OUT || handler === DELIVERY,
      async run() {
        for (let i = 0; i < ideas; i++)
          await caller.json('POST', '/ideas', 201, { title: `Rate idea ${i}`, status: 'new', module: 'general' });
        return ideas;
      },
      async settle() {
        const deadline = Date.now() + 600_000;
        for (;;) {
          const statuses = await deliveryStatuses(sandbox, caller.slug);
          if ((statuses.delivered ?? 0) >= ideas) break;
          if (Date.now() > deadline) throw new Error(`Deliveries not all made: ${JSON.stringify(statuses)}, ${target.received()} received`);
          await wait(250);
        }
        await target.close();
      },
    };
  },
};
