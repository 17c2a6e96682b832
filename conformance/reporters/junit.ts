// The report as JUnit XML, for CI dashboards: one test suite per operation, one test case per
// check (names unique within a suite) with its time in seconds; a failure carries its reason, a
// skip its reason as the skipped message.
import type { CheckResult, Report } from '../report.js';

export function renderJunit(report: Report): string {
  const suites = new Map<string, CheckResult[]>();
  for (const result of report.results) suites.set(result.operation, [...(suites.get(result.operation) ?? []), result]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" tests="${report.results.length}" failures="${report.summary.fail}" skipped="${report.summary.skip}" time="${seconds(report.durationMs)}">`,
  ];
  for (const [operation, results] of suites) {
    const failures = results.filter((r) => r.outcome === 'fail').length;
    const skipped = results.filter((r) => r.outcome === 'skip').length;
    const time = results.reduce((sum, r) => sum + r.durationMs, 0);
    lines.push(`  <testsuite name="${xml(operation)}" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${seconds(time)}">`);
    for (const result of results) {
      const open = `    <testcase classname="${xml(operation)}" name="${xml(result.check)}" time="${seconds(result.durationMs)}"`;
      if (result.outcome === 'pass') lines.push(`${open}/>`);
      else if (result.outcome === 'skip') lines.push(`${open}>`, `      <skipped message="${xml(result.reason)}"/>`, '    </testcase>');
      else lines.push(`${open}>`, `      <failure message="${xml(result.reason)}">${xml(result.reason)}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Text safe inside an XML attribute or element (characters XML 1.0 forbids are dropped). */
function xml(text: string): string {
  return text
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
