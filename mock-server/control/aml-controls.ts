// The sandbox control API's AML room (contracts/sandbox-control.openapi.yaml, tag AML): the
// simulated provider's answers (or failures) per address, its currency allowlist and its request
// counter.
// The provider belongs to the sandbox's current services, so a reset restores the defaults.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { AmlAnswer, SetAmlAnswerRequest } from '../../generated/sandbox-control/types.js';
import { catalogCurrencyName, defaultFailureReason, type AmlAnswerConfig, type AmlProviderAnswer } from '../domain/aml/aml-provider.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

type AmlControlOperation = 'setAmlAnswer' | 'setAmlCurrencies' | 'getAmlProvider';

export function amlControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, AmlControlOperation> {
  const { clock } = sandbox;
  return {
    setAmlAnswer: (request, context) => {
      const body = request.body;
      const answer = sandbox.services.aml.provider.setAnswer({
        address: body.address,
        answer: providerAnswer(body),
        delaySeconds: body.delay_seconds ?? 0,
        createdAt: clock.now(),
      });
      return controlSuccess('setAmlAnswer', context, clock, 201, presentAnswer(answer));
    },
    setAmlCurrencies: (request, context) => {
      const entries = request.body.currencies;
      const seen = new Set<string>();
      const repeated: string[] = [];
      for (const e of entries) {
        const pair = `${e.code}/${e.network}`;
        if (seen.has(pair)) repeated.push(`${e.code} on ${e.network} is given more than once`);
        seen.add(pair);
      }
      if (repeated.length > 0) throw new HttpError('validation_error', 'A currency is given twice.', { 'body.currencies': repeated });
      const provider = sandbox.services.aml.provider;
      provider.setCurrencies(entries.map((e) => ({ code: e.code, network: e.network, name: e.name ?? catalogCurrencyName(e.code, e.network) ?? e.code })));
      return controlSuccess('setAmlCurrencies', context, clock, 200, { currencies: provider.currencies().map((c) => ({ ...c })) });
    },
    getAmlProvider: (_request, context) => {
      const provider = sandbox.services.aml.provider;
      return controlSuccess('getAmlProvider', context, clock, 200, { calls: provider.calls, answers: provider.listAnswers().map(presentAnswer) });
    },
  };
}

/**
 * The request's answer: a failure takes a reason and no score or level, an answer a score and a
 * level and no reason (SetAmlAnswerRequest's description); another combination is 422.
 */
function providerAnswer(body: SetAmlAnswerRequest): AmlProviderAnswer {
  const details: Record<string, string[]> = {};
  if (body.outcome === 'failed') {
    for (const field of ['score', 'level'] as const) if (body[field] !== undefined) details[`body.${field}`] = ['is not taken with outcome failed'];
  } else {
    for (const field of ['score', 'level'] as const) if (body[field] === undefined) details[`body.${field}`] = ['is required unless outcome is failed'];
    if (body.reason !== undefined) details['body.reason'] = ['is only taken with outcome failed'];
  }
  if (Object.keys(details).length > 0) throw new HttpError('validation_error', 'The given data was invalid.', details);
  if (body.outcome === 'failed') return { failed: true, reason: body.reason ?? defaultFailureReason };
  return { failed: false, score: body.score!, level: body.level! };
}

function presentAnswer(a: AmlAnswerConfig): AmlAnswer {
  const { answer } = a;
  return {
    address: a.address,
    outcome: answer.failed ? 'failed' : 'completed',
    score: answer.failed ? null : answer.score,
    level: answer.failed ? null : answer.level,
    reason: answer.failed ? answer.reason : null,
    delay_seconds: a.delaySeconds,
    created_at: a.createdAt.toISOString(),
  };
}
