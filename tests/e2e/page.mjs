// The page object of the e2e suite: every selector of the calculator page and every read of its
// `data-value` (and `data-diff`) attributes lives here, so a markup change is fixed in one place.
// The server, the browser and the URL-state wait stay in harness.mjs.
import { openPage, LIVE } from './harness.mjs';

// ── Selectors ────────────────────────────────────────────────────────────────────────────────────

/** `[data-testid="id"]`. */
export const sel = (id) => `[data-testid="${id}"]`;

/** An input or select by its element id: `#id` (the page gives each form control the id of its URL key). */
export const field = (id) => `#${id}`;

/** The message under a field: `[data-testid="error-<id>"]`. */
export const errorSel = (id) => sel(`error-${id}`);

/** The results are drawn: their headline number is on the page. */
export const RESULTS_READY = sel('max-seqs');
/** The results section as a whole, and its title (which names the model). */
export const RESULTS = '.results';
export const RESULTS_TITLE = '#results-title';
/** The message shown instead of numbers when the model does not fit. */
export const REFUSAL = '.refusal';
/** The form with the inputs (absent in the embed views). */
export const INPUTS_FORM = 'form.inputs';

/** The three charts, by test id. */
export const CHARTS = ['chart-memory', 'chart-concurrency', 'chart-roofline'];
/** Any chart figure, and any chart's drawn SVG. */
export const ANY_CHART = '[data-testid^="chart-"]';
export const ANY_CHART_SVG = `${ANY_CHART} svg`;
/** A chart's SVG (`svg` anywhere inside the figure) and the box that holds the drawn SVG markup. */
export const chartSvg = (id) => `${sel(id)} svg`;
export const chartBox = (id) => `${sel(id)} .chart__svg`;

/** The "Embed…" button, the snippet it shows, and the embed view's link back to the full page. */
export const EMBED_BUTTON = 'text=Embed…';
export const EMBED_SNIPPET = sel('embed-snippet');
export const EMBED_FULL_LINK = '.embed__head a';

/** The panic banner and its reset link. */
export const PANIC_BANNER = sel('panic-banner');
export const PANIC_RESET = `${PANIC_BANNER} a`;

/** The repertoire table: a row by its key (`<model short name>-<auto|fp8>`) and the button that loads it. */
export const repertoireRow = (key) => `.repertoire tr[data-row="${key}"]`;
export const repertoireButton = (key) => `${repertoireRow(key)} button`;

/** The collapsible import and verify panels, opened by their summaries. */
export const IMPORT_SUMMARY = 'details.import summary';
export const IMPORT_DROP = 'details.import';
export const VERIFY_SUMMARY = 'details.verify summary';

/** The log check's side-by-side table, and one of its rows by key (`tokens`, `blocks`, `concurrency`, …). */
export const LOG_COMPARE = sel('log-compare');
export const compareRow = (key) => `${LOG_COMPARE} tr[data-row="${key}"]`;

/** The image a hostile input tries to inject (`<img src=x …>`). */
export const INJECTED_IMG = 'img[src="x"]';

// ── Reads ────────────────────────────────────────────────────────────────────────────────────────

/** The `data-value` attribute of a test id (null when it has none). */
export const value = (page, id) => page.getAttribute(sel(id), 'data-value');

/** The text content of a test id. */
export const text = (page, id) => page.textContent(sel(id));

/** How many elements a selector matches. */
export const count = (page, selector) => page.locator(selector).count();

/** The value of an input or select. */
export const fieldValue = (page, fieldId) => page.inputValue(field(fieldId));

/** A field's `aria-invalid` (`'true'` while its text is rejected). */
export const fieldInvalid = (page, fieldId) => page.getAttribute(field(fieldId), 'aria-invalid');

/** The message under a field (empty when the text is accepted). */
export const fieldError = (page, fieldId) => page.textContent(errorSel(fieldId));

/** The `data-diff` of a row of the log check's table ('' when the row has no difference). */
export const compareDiff = (page, key) => page.getAttribute(compareRow(key), 'data-diff');

/**
 * A repertoire row's cells that carry a `data-value`, keyed by their `data-label`:
 * `{ 'KV per token': '57344', 'Sequences that fit': '…' }`; `{}` when there is no such row.
 */
export const repertoire = (page, key) => page.$$eval(
  `${repertoireRow(key)} td[data-value]`,
  (cells) => Object.fromEntries(cells.map((c) => [c.dataset.label, c.dataset.value])),
);

/** The embed snippet's text (shown after `openEmbed`). */
export const embedSnippet = (page) => page.inputValue(EMBED_SNIPPET);

/** What a hostile input set, if it ran (undefined when nothing ran). */
export const pwned = (page) => page.evaluate(() => window.__pwned);

// ── Actions ──────────────────────────────────────────────────────────────────────────────────────

/** Waits until the results are drawn. */
export async function ready(page, options) {
  await page.waitForSelector(LIVE, { state: 'attached', ...options });
  await page.waitForSelector(RESULTS_READY, options);
}

/** `openPage` at `base + query`, then `ready`. Resolves to `{ context, page, problems }`. */
export async function openReady(env, query, options = {}) {
  const o = await openPage(env.b, env.srv.base + query, options);
  await ready(o.page);
  return o;
}

/** The form's settings beyond the first screen (parallelism, engine, vLLM, requests). */
export const MORE_SETTINGS = sel('more-settings');

/** Opens the `<details>` holding `selector`'s element (the form's other settings, "More vLLM
 * flags") as a reader would, by clicking its summary, when it is closed. */
export async function reveal(page, selector) {
  for (;;) {
    const summary = await page.evaluate((s) => {
      const d = document.querySelector(s)?.closest('details:not([open])');
      if (!d) return null;
      d.querySelector(':scope > summary').setAttribute('data-reveal', '');
      return true;
    }, selector);
    if (!summary) return;
    await page.click('summary[data-reveal]');
    await page.evaluate(() => document.querySelector('summary[data-reveal]')?.removeAttribute('data-reveal'));
  }
}

/** Types `text` into a field (replacing what was there). */
export const fill = async (page, fieldId, text) => {
  await reveal(page, field(fieldId));
  await page.fill(field(fieldId), text);
};

/** Chooses `option` (its value) in a select. */
export const select = async (page, fieldId, option) => {
  await reveal(page, field(fieldId));
  await page.selectOption(field(fieldId), option);
};

/** Clicks a test id. */
export const click = async (page, id) => {
  await reveal(page, sel(id));
  await page.click(sel(id));
};

/** Opens the embed box. */
export const openEmbed = (page) => page.click(EMBED_BUTTON);

// ── Waits (the page updates asynchronously) ──────────────────────────────────────────────────────

/** Waits until a test id's `data-value` is `expected`. */
export async function waitValue(page, id, expected) {
  await page.waitForFunction(([s, v]) => document.querySelector(s)?.dataset.value === v, [sel(id), expected]);
}

/** Waits until a test id's text matches `pattern` (a RegExp). */
export async function waitText(page, id, pattern) {
  await page.waitForFunction(
    ([s, src, flags]) => new RegExp(src, flags).test(document.querySelector(s)?.textContent ?? ''),
    [sel(id), pattern.source, pattern.flags],
  );
}

/** Waits until a test id's text is not empty. */
export async function waitNonEmpty(page, id) {
  await page.waitForFunction((s) => document.querySelector(s).textContent !== '', sel(id));
}

/** Waits until a field's value is `expected`. */
export async function waitField(page, fieldId, expected) {
  await page.waitForFunction(([s, v]) => document.querySelector(s).value === v, [field(fieldId), expected]);
}

/** Waits until a row of the log check's table has `data-diff` `expected`. */
export async function waitDiff(page, key, expected) {
  await page.waitForFunction(([s, v]) => document.querySelector(s)?.dataset.diff === v, [compareRow(key), expected]);
}

// ── SGLang and the two engines side by side ──────────────────────────────────────────────────────

/** The heading over the startup lines (names the engine and its release). */
export const LINES_HEADING = 'lines-heading';
/** Under SGLang, its figures in the headline's test ids (with a `data-value`): sequences at the
 * context, KV per token, the pool as allocated, tokens; and its own mem_fraction_static. */
export const SGLANG_STATS = {
  seqs: 'max-seqs', bytesPerToken: 'bytes-per-token', pool: 'kv-pool-bytes', tokens: 'kv-tokens', mfs: 'sglang-mfs',
};
/** The "same GPU, both engines" table and the sentence on why they differ. */
export const ENGINES_TABLE = sel('compare');
export const ENGINES_WHY = 'compare-why';
/** A cell of that table: `engine` is `vllm` or `sglang`, `what` is `tokens` or `seqs`. */
export const engineCell = (engine, what) => `compare-${engine}-${what}`;
/** An input's placeholder (the default it follows when empty). */
export const placeholder = (page, fieldId) => page.getAttribute(field(fieldId), 'placeholder');
/** The one-line answer bar (pinned to narrow screens); it follows the chosen engine. */
export const ANSWER_BAR = '.answer';
