// Every webhook the local receiver got during the run (the flows' order and deposit events, not
// only the test event): signed with the secret the server gave for its target and valid against
// its event type's schema. One row per flow and event type.
import type { RunContext } from '../context.js';
import { eventTypeOf, payloadProblems, signatureProblems } from '../judge/webhook.js';

export async function checkReceivedWebhooks(context: RunContext): Promise<void> {
  if (context.webhookTargets.size === 0) return;
  const receiver = await context.webhookReceiver();
  const rows = new Map<string, { flow: string; type: string; count: number; problems: Set<string> }>();
  for (const webhook of receiver.all()) {
    const target = context.webhookTargets.get(webhook.path);
    if (target === undefined) continue;
    const type = eventTypeOf(target.family, webhook) ?? '(no event type)';
    const key = `${target.flow} ${type}`;
    const row = rows.get(key) ?? { flow: target.flow, type, count: 0, problems: new Set<string>() };
    row.count += 1;
    for (const problem of [...signatureProblems(target.family, webhook, target.secrets), ...payloadProblems(target.family, webhook)]) row.problems.add(problem);
    rows.set(key, row);
  }
  for (const row of rows.values()) {
    context.log.judge(row.flow, `received ${row.type}`, [...row.problems], `${row.count} webhook(s), each signed and valid`);
  }
}
