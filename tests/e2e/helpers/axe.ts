/** axe-core as the journeys run it (QUALITY 29): WCAG 2.2 AA, serious and critical findings only. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    // Only the violations carry every node: the passes and incomplete results (most of a page) are
    // cut to one node each instead of being serialized whole out of the page and thrown away.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] })
    // axe.run in the page itself. The default (axe's "partial" run, for cross-origin frames, which
    // the app has none of) opens a new blank page for every analysis, injects axe's 0.5 MB source
    // there as well and serializes the partial results into it (docs/performance.md "The test suite").
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}) on ${page.url()}: ${violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ')}`)
          .join(' | ')}`,
    );
}
