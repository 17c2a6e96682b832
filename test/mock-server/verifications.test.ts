// Identity and card verifications over real HTTP through the generated clients (strict mode):
// built from committed uploads (consumed; reuse refused), documents attached by upload, the
// verification machine (pending → in_review → approved / rejected, expiry on the virtual clock)
// with its actions, the control API's review, order verifications, requirements by route and
// amount, an order held for a verification released by the review, and isolation.
import { describe, expect, it } from 'vitest';
import type { ExchangeRoute, UploadIntent } from '../../generated/exchange-v3/types.js';
import { verificationMachine } from '../../generated/machines.js';
import { failure } from './support/failure.js';
import { btcAddress, mastercard, tronAddress, visa } from './support/requisites.js';
import { mintKey, v3Client } from './support/keys.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';
import { createIntent, fileBytes, filePart, uploaded } from './uploads-helpers.js';

let server: TestServer;
useFrozenSandbox({ seed: 93 }, (started) => {
  server = started;
});


const identityUpload = (kind: string) => uploaded(server.v3, { purpose: 'identity_verification', field_key: kind });
const cardUpload = () => uploaded(server.v3, { purpose: 'card_verification', field_key: 'card_photo' });

async function identity(documents: { intent: UploadIntent; kind: 'passport' | 'selfie' | 'id_card' }[], order?: string) {
  const body = { documents: documents.map((d) => ({ upload_intent: d.intent.uuid, kind: d.kind })), ...(order !== undefined ? { order } : {}) };
  return (await server.v3.createIdentityVerification({ body })).body.result.verification;
}

async function review(id: string, decision: 'approve' | 'reject', reason?: string) {
  return server.control.reviewVerification({ path: { verification: id }, body: { decision, ...(reason !== undefined ? { reason } : {}) } });
}

async function intentStatus(intent: UploadIntent) {
  return (await server.v3.getUploadIntent({ path: { intent: intent.uuid } })).body.result.upload_intent;
}

async function routes(): Promise<ExchangeRoute[]> {
  const all: ExchangeRoute[] = [];
  for (let page = 1; page <= 2; page += 1) all.push(...(await server.v3.listRoutes({ query: { per_page: 100, page } })).body.result.routes);
  return all;
}

async function route(from: string, to: string): Promise<ExchangeRoute> {
  const found = (await routes()).find((r) => r.from.code === from && r.to.code === to);
  if (found === undefined) throw new Error(`the seeded catalog has no ${from} → ${to} route`);
  return found;
}

/** An order above the identity threshold of BTC → USDTTRC20, created over HTTP. */
async function orderNeedingIdentity() {
  const r = await route('BTC', 'USDTTRC20');
  const created = await server.v3.createOrder({ body: { route_id: r.id, amount: r.limits.max_give, email: 'alice@example.com', requisites: { to_address: tronAddress } } });
  return created.body.result.order;
}

describe('an identity verification from uploads', () => {
  it('goes to review with every document, consuming the uploads; reusing one is refused per document', async () => {
    const passport = await identityUpload('passport');
    const selfie = await identityUpload('selfie');
    const created = await server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: passport.uuid, kind: 'passport' }, { upload_intent: selfie.uuid, kind: 'selfie' }] } });
    expect(created.status).toBe(201);
    const verification = created.body.result.verification;
    expect(verification).toMatchObject({ type: 'identity', status: 'in_review', order_id: null, card: null, rejection_reason: null, reviewed_at: null });
    expect(verification.documents).toEqual([{ upload_intent: passport.uuid, kind: 'passport' }, { upload_intent: selfie.uuid, kind: 'selfie' }]);
    for (const intent of [passport, selfie]) expect(await intentStatus(intent)).toMatchObject({ status: 'consumed', consumed_at: verification.created_at });

    const fresh = await identityUpload('selfie');
    const reused = await failure(identity([{ intent: passport, kind: 'passport' }, { intent: fresh, kind: 'selfie' }]));
    expect([reused.status, reused.code, Object.keys(reused.details)]).toEqual([422, 'validation_error', ['documents.0.upload_intent']]);
    expect(reused.details['documents.0.upload_intent']!.join()).toContain('consumed');
    expect((await intentStatus(fresh)).status).toBe('committed'); // nothing was consumed by the refused request
  });

  it('refuses an uncommitted upload, an unknown one, a wrong purpose and a wrong kind, each by its document', async () => {
    const pending = await createIntent(server.v3);
    const cardPhoto = await cardUpload();
    const passport = await identityUpload('passport');
    const refused = await failure(
      server.v3.createIdentityVerification({
        body: {
          documents: [
            { upload_intent: pending.uuid, kind: 'passport' },
            { upload_intent: '3f9a2c1e-7b4d-4e8a-9c6f-1a2b3c4d5e6f', kind: 'selfie' },
            { upload_intent: cardPhoto.uuid, kind: 'selfie' },
            { upload_intent: passport.uuid, kind: 'card_photo' },
          ],
        },
      }),
    );
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.details).sort()).toEqual(['documents.0.upload_intent', 'documents.1.upload_intent', 'documents.2.upload_intent', 'documents.3.kind']);
    expect((await intentStatus(passport)).status).toBe('committed');
  });

  it('stays pending without every document, takes one more by upload and is submitted for its order', async () => {
    const order = await orderNeedingIdentity();
    expect(order.verification).toEqual({ required: true, status: null });
    const verification = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }], order.public_id);
    expect(verification).toMatchObject({ status: 'pending', order_id: order.id });
    const actions = async () => (await server.v3.getIdentityVerificationActions({ path: { verification: verification.id } })).body.result.actions;
    expect(await actions()).toEqual([
      { action: 'upload_document', allowed: true, reason: null },
      { action: 'submit', allowed: false, reason: 'A required document is missing: selfie.' },
      { action: 'resubmit', allowed: false, reason: expect.any(String) },
    ]);
    const early = await failure(server.v3.submitOrderVerifications({ path: { order: order.public_id }, body: { verifications: [verification.id] } }));
    expect([early.status, early.details]).toEqual([422, { 'verifications.0': ['a required document is missing: selfie'] }]);

    const selfie = await uploaded(server.v3, { purpose: 'identity_verification', resource_type: 'verification', resource_id: verification.id, field_key: 'selfie' });
    expect(selfie.status).toBe('consumed');
    expect((await actions()).find((a) => a.action === 'submit')).toEqual({ action: 'submit', allowed: true, reason: null });

    const submitted = await server.v3.submitOrderVerifications({ path: { order: order.tracking_id }, body: { verifications: [verification.id] } });
    expect(submitted.body.result.verifications).toMatchObject([{ id: verification.id, status: 'in_review', documents: [{ kind: 'passport' }, { upload_intent: selfie.uuid, kind: 'selfie' }] }]);
    const listed = (await server.v3.listOrderVerifications({ path: { order: String(order.id) } })).body.result.verifications;
    expect(listed.map((v) => [v.id, v.status])).toEqual([[verification.id, 'in_review']]);
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order.verification).toEqual({ required: true, status: 'in_review' });

    const twice = await failure(server.v3.submitOrderVerifications({ path: { order: order.public_id }, body: { verifications: [verification.id] } }));
    expect([twice.status, twice.code, Object.keys(twice.details)]).toEqual([409, 'invalid_state_transition', ['verifications.0']]);
  });

  it('expires when left pending past its ttl, after which only a new one can be started', async () => {
    const verification = await identity([{ intent: await identityUpload('id_card'), kind: 'id_card' }]);
    await server.control.advanceClock({ body: { seconds: verificationMachine.timers.ttl?.seconds ?? 0 } });
    const read = (await server.v3.getIdentityVerification({ path: { verification: verification.id } })).body.result.verification;
    expect(read.status).toBe('expired');
    const actions = (await server.v3.getIdentityVerificationActions({ path: { verification: verification.id } })).body.result.actions;
    expect(actions.map((a) => [a.action, a.allowed])).toEqual([['upload_document', false], ['submit', false], ['resubmit', true]]);
  });
});

describe('a card verification', () => {
  it('keeps only the masked card, goes to review, and once approved the card is verified once', async () => {
    const photo = await cardUpload();
    const created = await server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: photo.uuid } });
    const verification = created.body.result.verification;
    expect(verification).toMatchObject({ type: 'card', status: 'in_review', card: { first6: '411111', last4: '1111', holder_name: 'ALICE SMITH' }, documents: [{ upload_intent: photo.uuid, kind: 'card_photo' }] });
    expect(JSON.stringify(verification)).not.toContain(visa);
    expect((await intentStatus(photo)).status).toBe('consumed');

    const approved = await review(verification.id, 'approve');
    expect(approved.body.result.verification).toMatchObject({ id: verification.id, status: 'approved' });
    const read = (await server.v3.getCardVerification({ path: { verification: verification.id } })).body.result.verification;
    expect(read).toMatchObject({ status: 'approved', reviewed_at: server.sandbox.clock.now().toISOString() });

    const again = await failure(server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: (await cardUpload()).uuid } }));
    expect([again.status, Object.keys(again.details)]).toEqual([422, ['card_number']]);
  });

  it('is of the card the order it names pays with: another card is refused and cannot release the order', async () => {
    const card = await route('CARDUSD', 'BTC');
    const requisites = { from_card_number: visa, holder_name: 'ALICE SMITH', to_address: btcAddress };
    const order = (await server.v3.createOrder({ body: { route_id: card.id, amount: card.limits.min_give, email: 'alice@example.com', requisites } })).body.result.order;
    expect(order.verification).toEqual({ required: true, status: null });
    const photo = await cardUpload();
    const other = await failure(server.v3.createCardVerification({ body: { card_number: mastercard, holder_name: 'ALICE SMITH', upload_intent: photo.uuid, order: order.public_id } }));
    expect([other.status, other.code, Object.keys(other.details)]).toEqual([422, 'validation_error', ['card_number']]);
    expect((await intentStatus(photo)).status).toBe('committed');
    expect((await server.v3.listOrderVerifications({ path: { order: order.public_id } })).body.result.verifications).toEqual([]);

    const paying = (await server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: photo.uuid, order: order.public_id } })).body.result.verification;
    expect(paying).toMatchObject({ status: 'in_review', order_id: order.id, card: { first6: '411111', last4: '1111' } });
    expect((await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'pay' } })).body.result.order.status).toBe('verification_hold');
    await review(paying.id, 'approve');
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'processing', verification: { status: 'approved' } });
  });

  it('refuses an identity upload as the card photo', async () => {
    const refused = await failure(server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: (await identityUpload('passport')).uuid } }));
    expect([refused.status, Object.keys(refused.details)]).toEqual([422, ['upload_intent']]);
  });
});

describe('the review (control reviewVerification)', () => {
  it('rejects with the reason shown as rejection_reason; a second decision is 409 with the machine reason', async () => {
    const verification = (await server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: (await cardUpload()).uuid } })).body.result.verification;
    const noReason = await failure(review(verification.id, 'reject'));
    expect([noReason.status, Object.keys(noReason.details)]).toEqual([422, ['reason']]);
    await review(verification.id, 'reject', 'The order number is not visible in the photo.');
    const read = (await server.v3.getCardVerification({ path: { verification: verification.id } })).body.result.verification;
    expect(read).toMatchObject({ status: 'rejected', rejection_reason: 'The order number is not visible in the photo.' });
    const late = await failure(review(verification.id, 'approve'));
    expect([late.status, late.code, late.details]).toEqual([409, 'invalid_state_transition', { decision: ['approve is not allowed from rejected (rejected is final)'] }]);
  });

  it("asks for more: back to pending with a new week, the named document set aside; the client's upload and submit answer it", async () => {
    const order = await orderNeedingIdentity();
    const verification = await identity(
      [
        { intent: await identityUpload('passport'), kind: 'passport' },
        { intent: await identityUpload('selfie'), kind: 'selfie' },
      ],
      order.public_id,
    );
    expect(verification.status).toBe('in_review');
    await server.control.advanceClock({ body: { seconds: 3600 } });
    const asked = await server.control.reviewVerification({
      path: { verification: verification.id },
      body: { decision: 'request_more_info', reason: 'The selfie is too dark.', documents: ['selfie'] },
    });
    const now = server.sandbox.clock.nowMs();
    expect(asked.body.result.verification).toMatchObject({
      status: 'pending',
      rejection_reason: 'The selfie is too dark.',
      reviewed_at: new Date(now).toISOString(),
      expires_at: new Date(now + (verificationMachine.timers.ttl?.seconds ?? 0) * 1000).toISOString(),
      documents: [{ kind: 'passport' }],
    });
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order.verification.status).toBe('pending');

    // The client's answer, through the public API: a new selfie, then the order's submit.
    await uploaded(server.v3, { purpose: 'identity_verification', resource_type: 'verification', resource_id: verification.id, field_key: 'selfie' });
    const submitted = await server.v3.submitOrderVerifications({ path: { order: order.public_id }, body: { verifications: [verification.id] } });
    expect(submitted.body.result.verifications).toMatchObject([{ status: 'in_review', documents: [{ kind: 'passport' }, { kind: 'selfie' }] }]);
    expect((await review(verification.id, 'approve')).body.result.verification).toMatchObject({ status: 'approved' });
  });

  it('a verification of no order is submitted again by the upload that completes its documents', async () => {
    const verification = (await server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: (await cardUpload()).uuid } })).body.result.verification;
    await server.control.reviewVerification({ path: { verification: verification.id }, body: { decision: 'request_more_info', reason: 'Hold the card closer.', documents: ['card_photo'] } });
    const actions = (await server.v3.getCardVerificationActions({ path: { verification: verification.id } })).body.result.actions;
    expect(actions.map((a) => [a.action, a.allowed])).toEqual([['upload_document', true], ['submit', false], ['resubmit', false]]);
    await uploaded(server.v3, { purpose: 'card_verification', resource_type: 'verification', resource_id: verification.id, field_key: 'card_photo' });
    const read = (await server.v3.getCardVerification({ path: { verification: verification.id } })).body.result.verification;
    expect(read).toMatchObject({ status: 'in_review', rejection_reason: 'Hold the card closer.', documents: [{ kind: 'card_photo' }] });
  });

  it('refuses request_more_info without a reason, documents with another decision, and a document it has not attached (422)', async () => {
    const verification = await identity([
      { intent: await identityUpload('passport'), kind: 'passport' },
      { intent: await identityUpload('selfie'), kind: 'selfie' },
    ]);
    for (const [body, field] of [
      [{ decision: 'request_more_info' }, 'reason'],
      [{ decision: 'approve', documents: ['selfie'] }, 'documents'],
      [{ decision: 'request_more_info', reason: 'x', documents: ['id_card'] }, 'documents'],
      [{ decision: 'request_more_info', reason: 'x', documents: ['card_photo'] }, 'documents.0'],
    ] as const) {
      const refused = await failure(server.control.reviewVerification({ path: { verification: verification.id }, body: body as never }));
      expect([refused.status, refused.code, Object.keys(refused.details)]).toEqual([422, 'validation_error', [field]]);
    }
    expect((await server.v3.getIdentityVerification({ path: { verification: verification.id } })).body.result.verification.status).toBe('in_review');
  });

  it('takes a pending verification into review first, and answers 404 to an unknown one', async () => {
    const pending = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }]);
    expect(pending.status).toBe('pending');
    expect((await review(pending.id, 'approve')).body.result.verification).toMatchObject({ status: 'approved' });
    const unknown = await failure(review('3f9a2c1e-7b4d-4e8a-9c6f-1a2b3c4d5e6f', 'approve'));
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found']);
  });

  it('releases an order held for its verification: paid → verification_hold → processing', async () => {
    const order = await orderNeedingIdentity();
    const paid = await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'pay' } });
    expect(paid.body.result.order.status).toBe('verification_hold');
    const verification = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }, { intent: await identityUpload('selfie'), kind: 'selfie' }], order.public_id);
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'verification_hold', verification: { required: true, status: 'in_review' } });
    await review(verification.id, 'approve');
    const released = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(released.status).toBe('processing');
    expect(released.history.map((h) => h.event)).toEqual(['create', 'pay', 'hold_for_verification', 'verification_approved']);
  });

  it('releases a held order once one of its verifications is approved, though a later one is still pending', async () => {
    const order = await orderNeedingIdentity();
    await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'pay' } });
    const complete = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }, { intent: await identityUpload('selfie'), kind: 'selfie' }], order.public_id);
    const partial = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }], order.public_id);
    expect([complete.status, partial.status]).toEqual(['in_review', 'pending']);
    await review(complete.id, 'approve');
    expect((await server.v3.getVerificationRequirements({ query: {} })).body.result.requirements.identity.required).toBe(false);
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'processing', verification: { status: 'approved' } });
    // The pending one running out later does not speak for the order any more.
    await server.control.advanceClock({ body: { seconds: verificationMachine.timers.ttl?.seconds ?? 0 } });
    expect((await server.v3.getIdentityVerification({ path: { verification: partial.id } })).body.result.verification.status).toBe('expired');
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'processing', verification: { status: 'approved' } });
  });

  it('holds an order needing both a card and an identity verification until both are approved', async () => {
    const card = await route('CARDUSD', 'BTC');
    const requisites = { from_card_number: visa, holder_name: 'ALICE SMITH', to_address: btcAddress };
    const order = (await server.v3.createOrder({ body: { route_id: card.id, amount: card.limits.max_give, email: 'alice@example.com', requisites } })).body.result.order;
    expect((await server.v3.preflightOrder({ body: { route_id: card.id, amount: card.limits.max_give, email: 'alice@example.com', requisites } })).body.result.preflight.verification_required).toEqual({ identity: true, card: true });
    await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'pay' } });
    const cardCheck = (await server.v3.createCardVerification({ body: { card_number: visa, holder_name: 'ALICE SMITH', upload_intent: (await cardUpload()).uuid, order: order.public_id } })).body.result.verification;
    const person = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }, { intent: await identityUpload('selfie'), kind: 'selfie' }], order.public_id);
    await review(cardCheck.id, 'approve');
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'verification_hold', verification: { status: 'in_review' } });
    await review(person.id, 'approve');
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'processing', verification: { status: 'approved' } });
    const listed = (await server.v3.listOrderVerifications({ path: { order: order.public_id } })).body.result.verifications;
    expect(listed.map((v) => [v.type, v.status])).toEqual([['card', 'approved'], ['identity', 'approved']]);
  });

  it('sends a held order to error when its verification is rejected', async () => {
    const order = await orderNeedingIdentity();
    await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'pay' } });
    const verification = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }, { intent: await identityUpload('selfie'), kind: 'selfie' }], order.public_id);
    await review(verification.id, 'reject', 'The selfie does not match the passport.');
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'error', verification: { required: true, status: 'rejected' } });
  });
});

describe('requirements by route and amount', () => {
  it('asks for a card on card routes, for identity above the threshold until one is approved', async () => {
    const requirements = async (query: { route_id?: number; amount?: string }) => (await server.v3.getVerificationRequirements({ query })).body.result.requirements;
    expect(await requirements({})).toEqual({ identity: { required: false, documents: ['passport', 'selfie'] }, card: { required: false, reason: null } });
    const card = await route('CARDUSD', 'BTC');
    expect((await requirements({ route_id: card.id })).card).toMatchObject({ required: true, reason: expect.any(String) });
    const crypto = await route('BTC', 'USDTTRC20');
    expect((await requirements({ route_id: crypto.id, amount: crypto.limits.min_give })).identity.required).toBe(false);
    expect((await requirements({ route_id: crypto.id, amount: crypto.limits.max_give })).identity.required).toBe(true);

    const verification = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }, { intent: await identityUpload('selfie'), kind: 'selfie' }]);
    await review(verification.id, 'approve');
    expect((await requirements({ route_id: crypto.id, amount: crypto.limits.max_give })).identity.required).toBe(false);
    const preflight = await server.v3.preflightOrder({ body: { route_id: crypto.id, amount: crypto.limits.max_give, email: 'alice@example.com', requisites: { to_address: tronAddress } } });
    expect(preflight.body.result.preflight.verification_required.identity).toBe(false);
  });

  it('answers 422 for an unknown route', async () => {
    const unknown = await failure(server.v3.getVerificationRequirements({ query: { route_id: 999_999 } }));
    expect([unknown.status, Object.keys(unknown.details)]).toEqual([422, ['route_id']]);
  });
});

describe('isolation', () => {
  it("answers 404 for another client's verifications and orders, and for the other type's path", async () => {
    const order = await orderNeedingIdentity();
    const verification = await identity([{ intent: await identityUpload('passport'), kind: 'passport' }], order.public_id);
    const other = v3Client(server, (await mintKey(server)).token);
    expect((await failure(other.getIdentityVerification({ path: { verification: verification.id } }))).status).toBe(404);
    expect((await failure(other.getIdentityVerificationActions({ path: { verification: verification.id } }))).status).toBe(404);
    expect((await failure(other.listOrderVerifications({ path: { order: order.public_id } }))).status).toBe(404);
    expect((await failure(server.v3.getCardVerification({ path: { verification: verification.id } }))).status).toBe(404);
    const theirs = await other.createUploadIntent({ body: { purpose: 'identity_verification' } });
    await other.commitUploadIntent({ path: { intent: theirs.body.result.upload_intent.uuid }, body: filePart('selfie.jpg', fileBytes('jpeg')) });
    const borrowed = await failure(server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: theirs.body.result.upload_intent.uuid, kind: 'selfie' }] } }));
    expect([borrowed.status, Object.keys(borrowed.details)]).toEqual([422, ['documents.0.upload_intent']]);
  });
});
