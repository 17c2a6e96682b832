// The v1 flow deposit → status → webhooks (--allow-writes): a deposit is created (checking
// idempotency), read back by uuid and by order id, and, under --sandbox, paid by a transaction put
// on the simulated chain and confirmed. The observed statuses must be legal for the deposit
// machine and the confirmed deposit must end final. Under --sandbox the flow first creates a site
// whose callback URL is the local receiver (and the run uses that site from then on), and every
// webhook the machine's transitions emit must reach it.
import { randomUUID } from 'node:crypto';
import type { Deposit } from '../../generated/deposit-v1/types.js';
import { depositMachine } from '../../generated/machines.js';
import { families, routeOf } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { sequenceProblems, withoutRepeats } from '../judge/machine.js';
import { eventTypeOf } from '../judge/webhook.js';
import { headerValue, type ReceivedWebhook } from '../http/webhook-receiver.js';
import { missingCredentials } from './operations.js';
import { flowStep, judgeStep } from './flow-step.js';
import { sendIdempotent } from './idempotency.js';
import { describeError, parseBody } from './judge-call.js';

const flow = 'flow:deposit';

export async function checkDepositFlow(context: RunContext): Promise<void> {
  const family = families.v1;
  if (!context.selected(family, routeOf(family, 'createDeposit'))) return;
  if (context.options.allowWrites !== true) return context.log.skip(flow, 'deposit', 'creates a deposit: needs --allow-writes');
  if (context.control !== undefined) await useSiteWithCallback(context);
  const v1 = context.v1;
  if (v1 === undefined) return context.log.skip(flow, 'deposit', missingCredentials(family));

  const assets = await flowStep(context, flow, family, 'listAssets', () => v1.listAssets());
  const asset = assets?.body.data.find((candidate) => candidate.depositEnabled);
  if (asset === undefined) return context.log.cannotRun(flow, 'deposit', 'listAssets offers no asset with deposits enabled');

  const body = { order_id: `conformance-${randomUUID()}`, asset: asset.code, amount: asset.minDepositAmount };
  const created = await sendIdempotent(context, { family, operationId: 'createDeposit', body, changedBody: { ...body, amount: `${asset.minDepositAmount}1` } });
  if (!judgeStep(context, flow, family, 'createDeposit', created)) return;
  const deposit = (parseBody(created!) as { data: Deposit }).data;
  const observed: (string | undefined)[] = [deposit.status];

  const read = async (): Promise<Deposit | undefined> => (await flowStep(context, flow, family, 'getDeposit', () => v1.getDeposit({ path: { uuid: deposit.uuid } })))?.body.data;
  observed.push((await read())?.status);
  const byOrder = await flowStep(context, flow, family, 'getDepositByOrderId', () => v1.getDepositByOrderId({ path: { orderId: deposit.orderId } }));
  observed.push(byOrder?.body.data.status);

  if (context.control === undefined) {
    context.log.skip(flow, 'payment', 'paying the deposit needs the simulated chain (--sandbox)');
  } else {
    observed.push(...(await payOnChain(context, deposit, read)));
  }
  const statuses = withoutRepeats(observed);
  context.log.judge(flow, 'machine', sequenceProblems(depositMachine, statuses, true), `observed ${statuses.join(' → ')}`);
  if (context.webhookTargets.has(`/${callbackName}`)) await expectEmittedWebhooks(context, deposit, statuses);
  await createRelated(context, deposit);
}

const callbackName = 'deposit-v1';

/** A site whose callback URL is the local receiver; the run's v1 calls use it from now on. */
async function useSiteWithCallback(context: RunContext): Promise<void> {
  try {
    const receiver = await context.webhookReceiver();
    const created = (await context.control!.createSite({ body: { name: 'conformance webhooks', callback_url: receiver.urlFor(callbackName) } })).body.result;
    await context.webhookTarget(callbackName, { family: families.v1, secret: created.webhook_secret, flow });
    context.useV1({ key: created.site.api_key, secret: created.api_secret });
    context.log.add(flow, 'sandbox:create-site', 'pass', `site ${created.site.id} calls back ${receiver.urlFor(callbackName)}`);
  } catch (error) {
    context.log.add(flow, 'sandbox:create-site', 'fail', `could not create a site with a callback: ${describeError(error)}`);
  }
}

/** Every webhook the observed transitions emit (per the deposit machine) must reach the receiver. */
async function expectEmittedWebhooks(context: RunContext, deposit: Deposit, statuses: readonly string[]): Promise<void> {
  const family = families.v1;
  const expected = statuses.slice(1).flatMap((to, index) => {
    const emits = depositMachine.transitions.find((t) => t.from === statuses[index] && t.to === to)?.emits;
    return emits === null || emits === undefined ? [] : [emits];
  });
  const receiver = await context.webhookReceiver();
  const timeoutMs = context.options.webhookTimeoutMs ?? 10_000;
  const missing: string[] = [];
  for (const type of expected) {
    const arrived = await receiver.waitFor(
      (webhook) => webhook.path === `/${callbackName}` && eventTypeOf(family, webhook) === type && webhook.rawBody.includes(deposit.uuid),
      timeoutMs,
    );
    if (arrived === undefined) missing.push(type);
  }
  context.log.judge(flow, 'webhooks', missing.map((type) => `no ${type} webhook for the deposit within ${timeoutMs} ms`), `${expected.join(', ') || 'no webhook expected'} arrived`);
  await checkSiteWebhookTools(context);
}

/** The site's test webhook must reach the callback, and a resent event must arrive again. */
async function checkSiteWebhookTools(context: RunContext): Promise<void> {
  const family = families.v1;
  const v1 = context.v1!;
  const receiver = await context.webhookReceiver();
  const timeoutMs = context.options.webhookTimeoutMs ?? 10_000;
  const atCallback = (eventId: string) => (webhook: ReceivedWebhook) =>
    webhook.path === `/${callbackName}` && headerValue(webhook.headers, family.webhooks.eventIdHeader) === eventId;

  const test = await flowStep(context, flow, family, 'sendSiteTestWebhook', () => v1.sendSiteTestWebhook());
  if (test === undefined) return;
  const eventId = test.body.data.eventId;
  context.paths.remember(family, routeOf(family, 'resendWebhookEvent'), { eventId });
  const arrived = await receiver.waitFor(atCallback(eventId), timeoutMs);
  context.log.judge(flow, 'test-webhook', arrived === undefined ? [`the test event ${eventId} did not reach the callback within ${timeoutMs} ms`] : [], `event ${eventId} arrived`);
  if (arrived === undefined) return;

  const resent = await flowStep(context, flow, family, 'resendWebhookEvent', () => v1.resendWebhookEvent({ path: { eventId } }));
  if (resent === undefined) return;
  const again = await receiver.waitFor((webhook) => webhook !== arrived && atCallback(eventId)(webhook), timeoutMs);
  context.log.judge(flow, 'resent-webhook', again === undefined ? [`the resent event ${eventId} did not arrive within ${timeoutMs} ms`] : [], `event ${eventId} arrived again`);
}

/** A static address and an AML check of the deposit's address, so the read checks can address them. */
async function createRelated(context: RunContext, deposit: Deposit): Promise<void> {
  const family = families.v1;
  const v1 = context.v1!;
  await flowStep(context, flow, family, 'createStaticAddress', () => v1.createStaticAddress({ body: { orderId: `conformance-${randomUUID()}`, asset: deposit.asset } }));
  const currencies = await flowStep(context, flow, family, 'listAmlCurrencies', () => v1.listAmlCurrencies());
  const currency = currencies?.body.data.find((candidate) => candidate.network === deposit.network);
  if (currency === undefined) return context.log.cannotRun(flow, 'createAmlCheck', `the AML provider screens nothing on ${deposit.network}`);
  const check = await flowStep(context, flow, family, 'createAmlCheck', () =>
    v1.createAmlCheck({ body: { currency: currency.code, network: currency.network, address: deposit.address } }),
  );
  if (check !== undefined) context.paths.remember(family, routeOf(family, 'getAmlCheck'), { uuid: check.body.data.uuid });
}

/** Sends the expected amount to the deposit's address and confirms it; returns the statuses seen. */
async function payOnChain(context: RunContext, deposit: Deposit, read: () => Promise<Deposit | undefined>): Promise<(string | undefined)[]> {
  const control = context.control!;
  const observed: (string | undefined)[] = [];
  let transaction;
  try {
    transaction = (await control.injectChainTransaction({ body: { network: deposit.network, address: deposit.address, ...(deposit.memo !== null ? { memo: deposit.memo } : {}), amount: deposit.amount ?? '1' } })).body.result;
  } catch (error) {
    context.log.add(flow, 'payment', 'fail', `the sandbox refused the transaction: ${describeError(error)}`);
    return observed;
  }
  observed.push((await read())?.status);
  await control.addChainConfirmations({ path: { hash: transaction.hash }, body: { count: transaction.required_confirmations } }).catch(() => undefined);
  const paid = await read();
  observed.push(paid?.status);
  const final = paid !== undefined && (depositMachine.terminal as readonly string[]).includes(paid.status);
  context.log.add(flow, 'payment', final ? 'pass' : 'fail', final ? `paid in full: ${paid.status}` : `after the confirmed payment the deposit is ${paid?.status ?? 'unreadable'}, not final`);
  return observed;
}
