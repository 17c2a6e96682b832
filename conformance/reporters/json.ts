// The report as JSON, for machines: the same fields as the Report type (the run's and each
// check's durationMs included).
import type { Report } from '../report.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
