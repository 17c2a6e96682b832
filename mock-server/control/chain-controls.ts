// The control API's Chain room: put a transaction on the simulated chain (the chain watcher
// credits it to the deposit, or the exchange order, with its address and memo) and add
// confirmations to one.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { ChainTransaction } from '../domain/deposits/chain-simulator.js';
import { compareAmounts } from '../decimal.js';
import type { DepositService } from '../domain/deposits/deposit-service.js';
import { findNetwork } from '../domain/deposits/networks.js';
import { ordersChanged } from '../handlers/v3-orders.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

type ChainOperation = 'injectChainTransaction' | 'addChainConfirmations';

export function chainControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, ChainOperation> {
  const { clock } = sandbox;
  const view = (service: DepositService, tx: ChainTransaction) => {
    const confirmations = service.chain.confirmations(tx, clock.now());
    return {
      hash: tx.hash,
      network: tx.network,
      address: tx.address,
      memo: tx.memo,
      amount: tx.amount,
      from: tx.from,
      confirmations,
      required_confirmations: tx.requiredConfirmations,
      block_height: confirmations > 0 ? tx.blockHeight : null,
      created_at: tx.createdAt.toISOString(),
      deposit_uuid: service.depositOf(tx.hash)?.uuid ?? null,
      order_id: sandbox.services.orders.paidBy(tx.hash)?.id ?? null,
    };
  };

  return {
    injectChainTransaction: async (request, context) => {
      const body = request.body;
      const network = findNetwork(body.network);
      const service = sandbox.services.deposits;
      const details: Record<string, string[]> = {};
      if (network === undefined) details['body.network'] = [`${body.network} is not a network of the v1 catalog`];
      if (body.hash !== undefined && service.chain.has(body.hash)) details['body.hash'] = ['a transaction with this hash is already on the chain'];
      if (compareAmounts(body.amount, '0') <= 0) details['body.amount'] = ['must be more than zero'];
      if (network === undefined || Object.keys(details).length > 0) throw new HttpError('validation_error', 'The given data was invalid.', details);
      const { transaction } = service.receive({
        network: network.code,
        address: body.address,
        memo: body.memo ?? null,
        amount: body.amount,
        ...(body.hash !== undefined ? { hash: body.hash } : {}),
        ...(body.from !== undefined ? { from: body.from } : {}),
        ...(body.confirmations !== undefined ? { confirmations: body.confirmations } : {}),
      });
      await service.flush();
      await ordersChanged(sandbox);
      return controlSuccess('injectChainTransaction', context, clock, 201, view(service, transaction));
    },
    addChainConfirmations: async (request, context) => {
      const service = sandbox.services.deposits;
      const tx = service.chain.get(request.path.hash);
      if (tx === undefined) throw new HttpError('not_found', 'No transaction of the simulated chain has this hash.');
      service.confirm(tx, request.body.count);
      await service.flush();
      await ordersChanged(sandbox);
      return controlSuccess('addChainConfirmations', context, clock, 200, view(service, tx));
    },
  };
}
