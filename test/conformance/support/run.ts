// Runs the conformance runner against a mock (or a proxy in front of one) with the mock's
// credentials, and helpers to read its report.
import { runConformance, type CheckResult, type ConformanceOptions, type Report } from '../../../conformance/index.js';
import type { RunningMockServer } from '../../../mock-server/server.js';

export function mockOptions(mock: RunningMockServer, baseUrl = mock.url): ConformanceOptions {
  return {
    baseUrl,
    token: mock.token,
    v1: { key: mock.site.apiKey, secret: mock.site.apiSecret },
    sandbox: true,
    allowWrites: true,
  };
}

export function runAgainst(mock: RunningMockServer, overrides: Partial<ConformanceOptions> = {}, baseUrl?: string): Promise<Report> {
  return runConformance({ ...mockOptions(mock, baseUrl), ...overrides });
}

export function failures(report: Report): CheckResult[] {
  return report.results.filter((result) => result.outcome === 'fail');
}

/** "operation check: reason" lines, for readable assertion messages. */
export function describeResults(results: readonly CheckResult[]): string {
  return results.map((r) => `${r.operation} ${r.check}: ${r.reason}`).join('\n');
}
