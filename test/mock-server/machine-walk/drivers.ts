// Every machine's driver, by machine name (contracts/machines/<name>.yaml). A machine without a
// driver fails the walk, so a new machine file cannot go untested.
import { amlCheckDriver } from './aml-check-driver.js';
import { depositDriver } from './deposit-driver.js';
import type { MachineDriver } from './driver.js';
import { orderDriver } from './order-driver.js';
import { reviewDriver } from './review-driver.js';
import { staticAddressDriver } from './static-address-driver.js';
import { uploadIntentDriver } from './upload-intent-driver.js';
import { verificationDriver } from './verification-driver.js';
import { webhookDeliveryDriver } from './webhook-delivery-driver.js';
import { webhookEndpointDriver } from './webhook-endpoint-driver.js';

export const drivers: Readonly<Record<string, MachineDriver<unknown>>> = {
  'aml-check': amlCheckDriver,
  deposit: depositDriver,
  order: orderDriver,
  review: reviewDriver,
  'static-address': staticAddressDriver,
  'upload-intent': uploadIntentDriver,
  verification: verificationDriver,
  'webhook-delivery': webhookDeliveryDriver,
  'webhook-endpoint': webhookEndpointDriver,
};
