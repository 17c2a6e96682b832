// The static-address machine: an address created through the deposit API, disabled and enabled by
// the operator through the control API.
import type { StaticAddress } from '../../../generated/deposit-v1/types.js';
import type { StaticAddressMachineEvent } from '../../../generated/sandbox-control/types.js';
import type { AnyTransition, MachineDriver } from './driver.js';

let orders = 0;

export const staticAddressDriver: MachineDriver<StaticAddress> = {
  async create({ site }) {
    orders += 1;
    return (await site.v1.createStaticAddress({ body: { orderId: `walk-static-${orders}`, asset: 'USDT_TRON' } })).body.data;
  },

  async fire({ server }, address, step: AnyTransition) {
    await server.control.forceStaticAddressEvent({ path: { static_address: address.uuid }, body: { event: step.event as StaticAddressMachineEvent } });
  },

  async status({ site }, address) {
    return (await site.v1.getStaticAddress({ path: { uuid: address.uuid } })).body.data.status;
  },
};
