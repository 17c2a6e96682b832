// Well-formed requisites for order bodies in tests: a payout address per network shape and
// Luhn-valid card numbers.
export const tronAddress = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
export const btcAddress = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
export const visa = '4111111111111111';
export const mastercard = '5555555555554444';
