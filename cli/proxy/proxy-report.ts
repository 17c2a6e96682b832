// What the proxy saw, for people and machines: one log line per violation (and per exchange the
// target did not answer), a summary at the end, a JSON report and JUnit XML (one test case per
// exchange, grouped by operation, through the conformance runner's JUnit renderer). Everything
// here is already redacted: the proxy hands over display text, never raw headers or bodies.
import { summarize, type CheckResult, type Report } from '../../conformance/report.js';
import { renderJunit } from '../../conformance/reporters/junit.js';
import type { Violation } from './contract-check.js';

export interface ReportedExchange {
  sequence: number;
  method: string;
  /** Path and query, redacted. */
  url: string;
  family: string | null;
  operationId: string | null;
  status: number;
  durationMs: number;
  violations: Violation[];
  notes: string[];
}

export interface ReportedFailure {
  sequence: number;
  method: string;
  url: string;
  reason: string;
}

export const proxyReportFormat = 'exchange-api-kit.proxy-report';

export class ProxyReport {
  readonly exchanges: ReportedExchange[] = [];
  readonly failures: ReportedFailure[] = [];
  private readonly startedAt = new Date();

  constructor(private readonly target: string) {}

  /** Adds an exchange; returns its log lines (one per violation and note). */
  addExchange(exchange: ReportedExchange): string[] {
    this.exchanges.push(exchange);
    const head = `#${exchange.sequence} ${exchange.method} ${exchange.url} → ${exchange.status} (${exchange.operationId ?? 'no operation'})`;
    return [
      ...exchange.violations.map((violation) => `violation ${head} ${violation.phase} ${violation.aspect}: ${violation.message}`),
      ...exchange.notes.map((note) => `note ${head}: ${note}`),
    ];
  }

  /** Adds an exchange the target did not answer; returns its log line. */
  addFailure(failure: ReportedFailure): string {
    this.failures.push(failure);
    return `error #${failure.sequence} ${failure.method} ${failure.url}: ${failure.reason}`;
  }

  get violationCount(): number {
    return this.exchanges.reduce((sum, exchange) => sum + exchange.violations.length, 0);
  }

  summary(): string {
    const seconds = ((Date.now() - this.startedAt.getTime()) / 1000).toFixed(1);
    const flawed = this.exchanges.filter((exchange) => exchange.violations.length > 0);
    const lines = [
      `proxy summary: ${this.exchanges.length} exchange${this.exchanges.length === 1 ? '' : 's'} in ${seconds} s, ` +
        `${flawed.length} with violations (${this.violationCount} violation${this.violationCount === 1 ? '' : 's'}), ` +
        `${this.failures.length} not answered by the target`,
    ];
    const byOperation = new Map<string, number>();
    for (const exchange of flawed) {
      const name = exchange.operationId ?? `(${exchange.violations[0]?.aspect ?? 'unknown'})`;
      byOperation.set(name, (byOperation.get(name) ?? 0) + exchange.violations.length);
    }
    const width = Math.max(0, ...[...byOperation.keys()].map((name) => name.length));
    for (const [name, count] of [...byOperation].sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`  ${name.padEnd(width)}  ${count} violation${count === 1 ? '' : 's'}`);
    return lines.join('\n');
  }

  json(): string {
    return `${JSON.stringify(
      {
        format: proxyReportFormat,
        version: 1,
        target: this.target,
        startedAt: this.startedAt.toISOString(),
        durationMs: Date.now() - this.startedAt.getTime(),
        summary: {
          exchanges: this.exchanges.length,
          exchangesWithViolations: this.exchanges.filter((exchange) => exchange.violations.length > 0).length,
          violations: this.violationCount,
          failures: this.failures.length,
        },
        exchanges: this.exchanges,
        failures: this.failures,
      },
      null,
      2,
    )}\n`;
  }

  /** JUnit XML: a test suite per operation, a test case per exchange; unanswered ones are skipped. */
  junit(): string {
    const results: CheckResult[] = [
      ...this.exchanges.map((exchange): CheckResult => ({
        operation: exchange.operationId ?? 'unknown-operation',
        check: `#${exchange.sequence} ${exchange.method} ${exchange.url} → ${exchange.status}`,
        outcome: exchange.violations.length > 0 ? 'fail' : 'pass',
        reason: exchange.violations.length > 0 ? exchange.violations.map((v) => `${v.phase} ${v.aspect}: ${v.message}`).join('; ') : 'conforms',
        durationMs: exchange.durationMs,
      })),
      ...this.failures.map((failure): CheckResult => ({
        operation: 'unanswered',
        check: `#${failure.sequence} ${failure.method} ${failure.url}`,
        outcome: 'skip',
        reason: failure.reason,
        durationMs: 0,
      })),
    ];
    const report: Report = {
      baseUrl: this.target,
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      results,
      summary: summarize(results),
    };
    return renderJunit(report);
  }
}
