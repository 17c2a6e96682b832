// The v3 verifications (identity and card): the requirements for a route and amount, creating
// one from committed upload intents, reading it and what can be done with it. An identity
// verification's id read as a card one (or the reverse) is 404, as is another client's.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { VerificationType } from '../../generated/exchange-v3/types.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { requiredDocuments } from '../domain/verifications/document-requirements.js';
import { verificationRequirements } from '../domain/verifications/requirements.js';
import { presentVerification, verificationActions } from '../domain/verifications/verification-records.js';
import type { CreateInput } from '../domain/verifications/verification-service.js';
import { HttpError } from '../http/http-error.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { ordersChanged } from './v3-orders.js';
import { clientOf } from './v3-request.js';

type VerificationOperation =
  | 'getVerificationRequirements' | 'createIdentityVerification' | 'getIdentityVerification' | 'getIdentityVerificationActions'
  | 'createCardVerification' | 'getCardVerification' | 'getCardVerificationActions';

export function verificationHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, VerificationOperation> {
  const { clock } = sandbox;
  const verifications = () => sandbox.services.verifications;

  const found = (context: HandlerContext, type: VerificationType, id: string) => {
    const verification = verifications().get(clientOf(context), type, id);
    if (verification === undefined) throw new HttpError('not_found', `No ${type} verification of this client has this id.`);
    return verification;
  };

  /** The database id of the client's order the body names; undefined when it names none. */
  const orderIdOf = (context: HandlerContext, ref: string | undefined): number | null => {
    if (ref === undefined) return null;
    const order = sandbox.services.orders.find(clientOf(context), ref);
    if (order === undefined) throw new HttpError('validation_error', 'The order is not found.', { 'body.order': ['no order of yours has this id, public_id or tracking_id'] });
    return order.id;
  };

  // Identity and card verifications share their rules; each operation answers with its own type.
  const create = async (context: HandlerContext, input: CreateInput) => {
    const created = verifications().create(clientOf(context), input);
    await ordersChanged(sandbox); // an order told of its verification may have moved
    if (!created.ok) throw new HttpError('validation_error', 'The documents cannot be used.', created.details);
    return { verification: presentVerification(created.verification) };
  };

  const get = (type: VerificationType, request: { path: { verification: string } }, context: HandlerContext) => ({
    verification: presentVerification(found(context, type, request.path.verification)),
  });
  const actions = (type: VerificationType, request: { path: { verification: string } }, context: HandlerContext) => ({
    actions: verificationActions(found(context, type, request.path.verification)),
  });

  return {
    getVerificationRequirements: (request, context) => {
      const { route_id: routeId, amount } = request.query;
      const route = routeId === undefined ? null : sandbox.services.catalog.route(routeId);
      if (route === undefined) throw new HttpError('validation_error', 'The route is not found.', { 'query.route_id': ['no route has this id'] });
      // Without a route the amount says nothing: the answer covers the client in general.
      const requirements = verificationRequirements(sandbox.services.verifications, clientOf(context), route, route === null ? null : (amount ?? null));
      return v3Success('getVerificationRequirements', context, clock, 200, { requirements });
    },

    createIdentityVerification: async (request, context) => {
      const created = await create(context, {
        type: 'identity',
        documents: request.body.documents.map((d, index) => ({ uploadIntent: d.upload_intent, kind: d.kind, field: `body.documents.${index}` })),
        card: null,
        orderId: orderIdOf(context, request.body.order),
      });
      return v3Success('createIdentityVerification', context, clock, 201, created);
    },
    getIdentityVerification: (request, context) => v3Success('getIdentityVerification', context, clock, 200, get('identity', request, context)),
    getIdentityVerificationActions: (request, context) => v3Success('getIdentityVerificationActions', context, clock, 200, actions('identity', request, context)),

    createCardVerification: async (request, context) => {
      const body = request.body;
      const created = await create(context, {
        type: 'card',
        documents: [{ uploadIntent: body.upload_intent, kind: requiredDocuments('card')[0]!, field: 'body' }],
        card: { number: body.card_number, holderName: body.holder_name },
        orderId: orderIdOf(context, body.order),
      });
      return v3Success('createCardVerification', context, clock, 201, created);
    },
    getCardVerification: (request, context) => v3Success('getCardVerification', context, clock, 200, get('card', request, context)),
    getCardVerificationActions: (request, context) => v3Success('getCardVerificationActions', context, clock, 200, actions('card', request, context)),
  };
}
